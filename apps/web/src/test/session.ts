import { startSession } from '@/lib/session.ts';

/** Signs in an agent (role 3, no supervisor rights) for a component test. */
export function startAgentSession() {
  startSession('header.payload.signature', {
    id: 7,
    name: 'Ana',
    last_name: 'Agente',
    second_last_name: null,
    username: 'agente',
    email: 'agente@example.com',
    role_id: 3,
    role: { id: 3, name: 'Agente', is_supervisor: 0 },
    area_id: null,
  });
}
