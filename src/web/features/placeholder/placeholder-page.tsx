import type { JSX } from 'react';
import { NotYetAvailable } from '../../components/ui/not-available';

/** A routed screen whose feature is not built yet: the sidebar link works and says so honestly. */
export function PlaceholderPage({ title }: { title: string }): JSX.Element {
  return <NotYetAvailable feature={title} />;
}
