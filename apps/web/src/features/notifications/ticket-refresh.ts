/**
 * Live lists: how ticket-changed events from the stream refresh the open ticket
 * queries. The first event refreshes at once; events arriving while that refresh runs ask for
 * one more, run as soon as it ends (its answer may predate them). So a change is on screen
 * one or two list reads after its event, and a steady flow of events (tickets being created
 * all the time) never cancels a refresh before it answers: at most one runs at a time.
 * It holds no timer, so there is nothing to stop when the page goes away.
 */
export function createTicketRefresher(refresh: () => Promise<unknown>) {
  let isRunning = false;
  let isRequested = false;

  async function run() {
    isRunning = true;
    try {
      do {
        isRequested = false;
        await refresh().catch(() => undefined);
      } while (isRequested);
    } finally {
      isRunning = false;
    }
  }

  return {
    /** A ticket the user may see changed. */
    changed(): void {
      if (isRunning) isRequested = true;
      else void run();
    },
  };
}
