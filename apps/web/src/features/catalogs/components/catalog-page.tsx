import { useLocation } from 'react-router';
import { ResourceScreen } from '@/components/resource/resource-screen.tsx';
import { catalogsByPath } from '../catalogs.ts';

/** Every catalogue screen: the generic list configured by the current path. */
export default function CatalogPage() {
  const { pathname } = useLocation();
  const config = catalogsByPath[pathname.replace(/\/+$/, '')];
  if (!config) return null;
  return <ResourceScreen key={config.resource} config={config} />;
}
