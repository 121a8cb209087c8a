// The claim dialog (SPEC §2 /user/board/{id}, §5 Claim, §8 claim failure). machines/claim.machine.ts
// owns the flow and every rule: the page creates one claim actor (useClaimActor), a 'claim' button
// sends `claim.open` with the board task's ClaimTarget, this dialog shows while the machine is
// editing or submitting, and submitting sends `claim.submit`. The form's valibot schema delegates to
// claimFieldErrors, so the dialog and the machine's guard (and the server) refuse the same values
// with the same words. Nothing of the machine's context is copied into component state.
import { useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useId, type JSX } from 'react';
import * as v from 'valibot';
import { fromPromise } from 'xstate';
import {
  claimFieldErrors,
  claimMachine,
  claimMessages,
  needsApproval,
  remainingOf,
  type ClaimField,
  type ClaimRequest,
  type ClaimTarget,
} from '../../../../machines/claim.machine';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { Checkbox, Form, FormError, TextField, useValibotForm } from '../../components/ui/form';
import { toast } from '../../components/ui/toast';
import { zh } from '../../i18n/zh';
import { useAppContext } from '../../app/app-context';
import { withAppInspect } from '../../inspect/create-app-actor';
import { STATUS_RELOAD_DELAY_MS } from '../../lib/status-reload';
import { submitClaim } from './member-boards-api';

const CLAIM_FIELDS: readonly ClaimField[] = ['count', 'state', 'zipCode', 'labelCount'];

/** The form's schema for one board task: the shape, then claimFieldErrors, each error on its field. */
export function claimFormSchema(target: ClaimTarget) {
  return v.pipe(
    v.object({
      count: v.string(),
      isHome: v.boolean(),
      state: v.string(),
      zipCode: v.string(),
      labelCount: v.string(),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const values = dataset.value;
      const errors = claimFieldErrors(values, target);
      for (const key of CLAIM_FIELDS) {
        const message = errors[key];
        if (!message) continue;
        addIssue({
          message,
          path: [{ type: 'object', origin: 'value', input: values, key, value: values[key] }],
        });
      }
    }),
  );
}

export type ClaimFormValues = v.InferOutput<ReturnType<typeof claimFormSchema>>;

const DEFAULT_VALUES: ClaimFormValues = { count: '1', isHome: false, state: '', zipCode: '', labelCount: '' };

/**
 * The page's claim actor. Its `submitClaim` sends the claim; on success it toasts '认领成功' (or the
 * server's msg, which the machine's output does not carry, hence here) and reloads the page's data
 * after SPEC §9's 10 ms, so the tables and the progress colour show the new claim.
 */
export function useClaimActor() {
  const { api } = useAppContext();
  const router = useRouter();
  return useActorRef(
    claimMachine.provide({
      actors: {
        submitClaim: fromPromise<{ taskId: number | null }, ClaimRequest>(async ({ input }) => {
          const result = await submitClaim(api, input);
          toast.success(result.message);
          setTimeout(() => void router.invalidate(), STATUS_RELOAD_DELAY_MS);
          return { taskId: result.taskId };
        }),
      },
    }),
    withAppInspect({}),
  );
}

export type ClaimActor = ReturnType<typeof useClaimActor>;

export interface ClaimDialogProps {
  actor: ClaimActor;
  /** The item name of a board task, for the dialog's subtitle. */
  itemNameOf: (boardTaskId: number) => string | undefined;
}

export function ClaimDialog({ actor, itemNameOf }: ClaimDialogProps): JSX.Element {
  const open = useSelector(actor, (s) => s.matches('editing') || s.matches('submitting'));
  const target = useSelector(actor, (s) => s.context.target);
  const boardTaskId = useSelector(actor, (s) => s.context.boardTaskId);
  const formId = useId();
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const itemName = itemNameOf(boardTaskId);

  return (
    <Modal
      open={open}
      onClose={() => actor.send({ type: 'claim.cancel' })}
      title={
        <>
          {zh.memberBoards.claimTitle}
          {itemName !== undefined && <span className="ml-2 text-sm font-normal text-slate-500">{zh.memberBoards.claimSubject(boardTaskId, itemName)}</span>}
        </>
      }
      footer={
        <>
          <Button variant="secondary" disabled={submitting} onClick={() => actor.send({ type: 'claim.cancel' })}>
            {zh.memberBoards.cancel}
          </Button>
          <Button type="submit" form={formId} loading={submitting}>
            {zh.memberBoards.submitClaim}
          </Button>
        </>
      }
    >
      {open && target && <ClaimForm key={boardTaskId} id={formId} actor={actor} target={target} />}
    </Modal>
  );
}

function ClaimForm({ id, actor, target }: { id: string; actor: ClaimActor; target: ClaimTarget }): JSX.Element {
  const form = useValibotForm(claimFormSchema(target), { defaultValues: DEFAULT_VALUES });
  const isHome = form.watch('isHome');
  const serverMessage = useSelector(actor, (s) => (s.matches('editing') ? s.context.serverMessage : null));

  return (
    <Form id={id} form={form} onSubmit={(values) => actor.send({ type: 'claim.submit', values })} className="flex flex-col gap-3">
      {needsApproval(target) && (
        <p role="note" className="rounded-md border border-orange-200 bg-orange-50 px-3 py-2 text-sm text-orange-800">
          {claimMessages.needsApproval}
        </p>
      )}
      <TextField<ClaimFormValues, 'count'>
        name="count"
        label={zh.memberBoards.count}
        inputMode="numeric"
        autoComplete="off"
        hint={zh.memberBoards.remaining(remainingOf(target))}
      />
      <Checkbox<ClaimFormValues, 'isHome'> name="isHome" label={zh.memberBoards.isHome} hint={zh.memberBoards.homeFieldsFixed} />
      {isHome && (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <TextField<ClaimFormValues, 'state'> name="state" label={zh.memberBoards.state} autoComplete="address-level1" />
          <TextField<ClaimFormValues, 'zipCode'> name="zipCode" label={zh.memberBoards.zipCode} autoComplete="postal-code" />
          <TextField<ClaimFormValues, 'labelCount'> name="labelCount" label={zh.memberBoards.labelCount} inputMode="numeric" autoComplete="off" />
        </div>
      )}
      <FormError message={serverMessage} />
    </Form>
  );
}
