import { SECTIONS } from '@portal/contract';
import { TicketsScreen } from './tickets-screen.tsx';

/** /general-tickets, Tickets Generales: every ticket. */
export default function GeneralTicketsPage() {
  return <TicketsScreen kind="general" section={SECTIONS.generalTickets} title="Tickets Generales" />;
}
