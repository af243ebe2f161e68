// @ts-check
import { parentPort } from 'node:worker_threads';

/**
 * The message loop of a long-lived database worker: `{id, ...request}` in, `{id, result}` or `{id, error, code}`
 * out, `'close'` to close the connection and end the thread.
 * @param {{ close(): unknown }} db
 * @param {(request: any) => unknown} handle
 */
export function serve(db, handle) {
  parentPort?.on('message', (/** @type {any} */ request) => {
    if (request === 'close') {
      db.close();
      parentPort?.close();
      return;
    }
    try {
      parentPort?.postMessage({ id: request.id, result: handle(request) });
    } catch (error) {
      const { message, code } = /** @type {{ message?: string, code?: string }} */ (error ?? {});
      parentPort?.postMessage({ id: request.id, error: message ?? String(error), code });
    }
  });
}
