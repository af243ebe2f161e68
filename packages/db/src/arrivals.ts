/**
 * Group commit's timing, shared by both of them: `flush` runs at the end of the first turn of the event loop that
 * adds nothing to the queue, or at once when it holds `limit`. While requests are still being read, waiting a turn
 * costs microseconds and lets them share the commit (and its fsync); a lone write waits one extra turn. Call the
 * function returned when the queue gets its first item.
 */
export function flushWhenArrivalsStop(size: () => number, limit: number, flush: () => void): () => void {
  let sizeLastTurn = 0;
  const check = () => {
    const queued = size();
    if (queued > sizeLastTurn && queued < limit) {
      sizeLastTurn = queued; // still growing: give the requests being read one more turn
      return void setImmediate(check);
    }
    sizeLastTurn = 0;
    flush();
  };
  return () => void setImmediate(check);
}
