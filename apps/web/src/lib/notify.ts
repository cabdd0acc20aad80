import { notifications } from '@mantine/notifications';

/** The toasts' stacking level: above modals and drawers. */
export const TOASTS_Z_INDEX = 1000;

/** Success toasts last 2000 ms. */
export const SUCCESS_MS = 2000;
export const ERROR_MS = 3000;

export function notifySuccess(title: string, message: string, autoClose = SUCCESS_MS): void {
  notifications.show({ title, message, color: 'teal', autoClose, withBorder: true });
}

export function notifyError(title: string, message: string, autoClose: number | false = ERROR_MS * 2): void {
  notifications.show({ title, message, color: 'red', autoClose, withBorder: true });
}

export function notifyWarning(title: string, message: string, autoClose = ERROR_MS): void {
  notifications.show({ title, message, color: 'yellow', autoClose, withBorder: true });
}
