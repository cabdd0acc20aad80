import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { matchPath, Navigate, useRoutes, type RouteObject } from 'react-router';
import { homePath, paths, routeNameOf } from '@/config/paths.ts';
import { NotFound } from '@/components/ui/not-found.tsx';
import { PageLoader } from '@/components/ui/page-loader.tsx';
import { getSession, hasLiveSession, useSession } from '@/lib/session.ts';
import { GuestOnly, RequireSession } from './guards.tsx';
import { screens, type Screen } from './routes.tsx';

const loadAppLayout = () => import('./layout/app-layout.tsx');
const loadPermissionGate = () => import('./layout/permission-gate.tsx');
const loadQueryProvider = () => import('./query-provider.tsx');
const AppLayout = lazy(loadAppLayout);
const PermissionGate = lazy(loadPermissionGate);
const QueryProvider = lazy(loadQueryProvider);

/** One lazy component per module, so screens sharing a module share a chunk and a component. */
const lazyByLoader = new Map<Screen['load'], LazyExoticComponent<ComponentType>>();
function lazyScreen(load: Screen['load']) {
  let component = lazyByLoader.get(load);
  if (!component) {
    component = lazy(load);
    lazyByLoader.set(load, component);
  }
  return component;
}

function toRoute(screen: Screen): RouteObject {
  const Page = lazyScreen(screen.load);
  const page =
    screen.access === 'permission' ? (
      // The screen's chunk loads while /check-permission is asked, not after it answers.
      <PermissionGate routeName={routeNameOf(screen.path)} preload={screen.load}>
        <Page />
      </PermissionGate>
    ) : (
      <Page />
    );
  return { path: screen.path, element: page };
}

function Standalone({ children }: { children: React.ReactNode }) {
  return <Suspense fallback={<PageLoader fullScreen />}>{children}</Suspense>;
}

/** A screen outside the layout that may use TanStack Query (recovery, logout). */
function StandaloneWithQueries({ children }: { children: React.ReactNode }) {
  return (
    <Standalone>
      <QueryProvider>{children}</QueryProvider>
    </Standalone>
  );
}

/** Unknown paths: the 404 page, inside the layout for a signed-in user. */
function UnknownPath() {
  const session = useSession();
  if (hasLiveSession(session)) {
    return (
      <Standalone>
        <AppLayout>
          <NotFound backTo={homePath} backLabel="Ir al inicio" headingOrder={2} />
        </AppLayout>
      </Standalone>
    );
  }
  return <NotFound backTo={paths.login} backLabel="Ir a iniciar sesión" />;
}

/** The bare address: home when signed in, else /login. */
function Root() {
  const session = useSession();
  return <Navigate to={hasLiveSession(session) ? homePath : paths.login} replace />;
}

const byAccess = (...access: Screen['access'][]) => screens.filter((s) => access.includes(s.access));
const signedIn = byAccess('session', 'permission');
/** /login stays light (no query client); other screens outside the layout get one. */
const standaloneRoute = (screen: Screen): RouteObject => {
  const route = toRoute(screen);
  const Wrapper = screen.access === 'guest' ? Standalone : StandaloneWithQueries;
  return { ...route, element: <Wrapper>{route.element}</Wrapper> };
};

export const routes: RouteObject[] = [
  { path: '/', element: <Root /> },
  { element: <GuestOnly />, children: byAccess('guest').map(standaloneRoute) },
  ...byAccess('public').map(standaloneRoute),
  {
    element: <RequireSession />,
    children: [
      ...signedIn.filter((s) => s.withLayout === false).map(standaloneRoute),
      {
        element: (
          <Standalone>
            <AppLayout />
          </Standalone>
        ),
        children: signedIn.filter((s) => s.withLayout !== false).map(toRoute),
      },
    ],
  },
  { path: '*', element: <UnknownPath /> },
];

/**
 * Starts loading, at once and together, the code the opened address will need:
 * its screen and, signed in, the layout, the query client and the permission
 * gate. Otherwise each would wait for the one above it to load and render (a
 * phone on a slow network waits a round trip for each). Signed in, it also asks
 * at once for the route's permission and the screen's first data (`startRequests`).
 */
export function preloadScreenOf(pathname: string, search = ''): void {
  const screen = screens.find((s) => matchPath(s.path, pathname));
  if (!screen) return;
  const needsSession = screen.access === 'session' || screen.access === 'permission';
  if (needsSession && !hasLiveSession()) return;
  const loads: (() => Promise<unknown>)[] = [screen.load];
  if (needsSession) loads.push(loadQueryProvider);
  if (needsSession && screen.withLayout !== false) loads.push(loadAppLayout);
  if (screen.access === 'permission') loads.push(loadPermissionGate);
  // A failed load is retried, and reported, by the lazy component that needs it.
  for (const load of loads) void load().catch(() => undefined);
  if (needsSession) void startRequests(screen, new URLSearchParams(search)).catch(() => undefined);
}

/**
 * The permission check and the screen's first data, asked into the query cache
 * as soon as the query client has loaded: the gate and the screen then find
 * them under way (the same queries) instead of asking one after the other.
 */
async function startRequests(screen: Screen, search: URLSearchParams): Promise<void> {
  const [{ queryClient }, { checkPermissionQuery, userPermissionsQuery }, prefetch] = await Promise.all([
    import('@/lib/query-client.ts'),
    import('@/lib/permissions.ts'),
    screen.prefetch?.(),
  ]);
  const session = getSession();
  if (!session) return;
  if (screen.access === 'permission') {
    void queryClient.prefetchQuery(checkPermissionQuery(session, routeNameOf(screen.path)));
  }
  // The layout's menu: answered before the layout renders, not a render later.
  if (screen.withLayout !== false) void queryClient.prefetchQuery(userPermissionsQuery(session));
  prefetch?.(queryClient, search);
}

/**
 * The app's routes, matched by the declarative router (`BrowserRouter` in app.tsx): the
 * screens load no data through the router, so its data-router half stays out of the entry.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
