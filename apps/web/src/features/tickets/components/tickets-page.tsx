import { SECTIONS } from '@portal/contract';
import { TicketsScreen } from './tickets-screen.tsx';

/** /tickets, Mis Tickets: the tickets the user created or is assigned to. */
export default function TicketsPage() {
  return <TicketsScreen kind="mine" section={SECTIONS.tickets} title="Mis Tickets" />;
}
