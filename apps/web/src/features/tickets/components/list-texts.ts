/**
 * SPEC §8 and §9 values the ticket screens share with the catalogue screen.
 * Kept here rather than imported from `resource-screen.tsx`, which would pull
 * the whole catalogue screen into the first page a user sees after signing in.
 */
export const TABLE_MAX_HEIGHT = 630;
export const SKELETON_ROWS = 5;
export const LOAD_FAILED = 'Error al cargar los datos. Inténtalo nuevamente.';
export const SAVE_FAILED = 'Hubo un problema al guardar el registro.';
