import { useEffect, useState } from 'preact/hooks';
import { ErrorText } from './ErrorText';
import { count } from './format';
import { taskError, taskStatus, type TaskStatus } from './operations';

const POLL_MS = 500;

/**
 * Follows a truncation task with getEsTaskStatus until it completes or fails. A failed poll (network down, server
 * error) stops the following and says so, with a way to resume: the task itself runs on in the server.
 */
export function TaskProgress(props: { task: string; onDone: () => void }) {
  const [status, setStatus] = useState<TaskStatus>();
  const [lost, setLost] = useState<unknown>();
  const [following, setFollowing] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await taskStatus(props.task);
        if (stopped) return;
        setStatus(next);
        if (!next.completed) timer = setTimeout(() => void poll(), POLL_MS);
      } catch (failure) {
        if (!stopped) setLost(failure);
      }
    };
    setLost(undefined);
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [props.task, following]);

  const total = status?.status.total ?? 0;
  const deleted = status?.status.deleted ?? 0;
  const failed = status?.completed && status.error !== undefined;
  const done = status?.completed && !failed;
  return (
    <div class="panel" aria-labelledby="task-title">
      <h2 id="task-title">
        Task <code>{props.task}</code>
      </h2>
      <progress max={Math.max(total, 1)} value={done && total === 0 ? 1 : deleted} aria-label="Rows deleted" />
      <p role="status" data-testid="task-state">
        {!status && 'Starting…'}
        {status && !status.completed && `Running: ${count(deleted)} of ${count(total)} rows deleted`}
        {done && `Completed: ${count(deleted)} of ${count(total)} rows deleted in ${(status.runTimeNanos / 1e9).toFixed(1)} s`}
        {failed && `Failed after ${count(deleted)} of ${count(total)} rows: ${taskError(status.error)}`}
      </p>
      {lost !== undefined && (
        <>
          <ErrorText error={lost} prefix={`Lost track of task ${props.task}: `} />
          <p class="hint">The task runs on in the server whatever happens to this page.</p>
          <button type="button" onClick={() => setFollowing((n) => n + 1)}>
            Resume following
          </button>
        </>
      )}
      {status?.completed && (
        <p>
          <a href="#indices">See the index sizes</a>{' '}
          <button type="button" onClick={props.onDone}>
            New truncation
          </button>
        </p>
      )}
    </div>
  );
}
