// The task statuses (SPEC §4 "Task status"), the states of machines/task.machine.ts.
// Apart from the machine so that a screen can read them without loading the machine and xstate: the
// web's route search schemas check a status in the address, and they load with the first page, the
// login page included (docs/decisions/130). The machine file re-exports them; import from there
// unless that first load matters.

export const TASK_STATUSES = ['pending', 'open', 'closed', 'locked', 'processing', 'finished', 'deleted', 'unmatch'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
