import { ResourceScreen } from '@/components/resource/resource-screen.tsx';
import { usersConfig } from '../users.ts';

export default function UsersPage() {
  return <ResourceScreen config={usersConfig} />;
}
