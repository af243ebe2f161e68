import { useEffect, useState } from 'preact/hooks';
import { ErrorText } from './ErrorText';
import { count, daysAgo, humanMb, utcMidnight } from './format';
import { dryRun, dryRunCounts, getIndexSizes, startTruncation, type IndexSize, type TruncationRequest } from './operations';
import { TaskProgress } from './TaskProgress';

/** Where the flow is: dry run first, then a confirmation, then the task, followed to its end. */
type Step =
  | { step: 'choose' }
  | { step: 'dry-run'; target: TruncationRequest; text: string; matching: number | undefined }
  | { step: 'confirm'; target: TruncationRequest; text: string; matching: number }
  | { step: 'running'; target: TruncationRequest; text: string; task: string };

/**
 * Truncation of one time-series index up to a cut-off day: the dry run's text as the server wrote it, a confirmation
 * naming what goes, then the task's progress. `refusal` is the server's 403 text for a token without the privilege:
 * such a user gets no form and no execute button (and the server would refuse them anyway).
 */
export function Truncation(props: { refusal: string | undefined }) {
  const [indices, setIndices] = useState<IndexSize[]>();
  const [index, setIndex] = useState('');
  const [day, setDay] = useState(daysAgo(7));
  const [step, setStep] = useState<Step>({ step: 'choose' });
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  // The indices and their sizes, asked again after each truncation (`asked` moves) so the choices show the new sizes.
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (props.refusal !== undefined) return;
    getIndexSizes().then((found) => {
      setIndices(found);
      setIndex((current) => current || (found[0]?.indexName ?? ''));
    }, setError);
  }, [asked]);

  if (props.refusal !== undefined) {
    return (
      <section aria-labelledby="truncate-title">
        <h1 id="truncate-title">Truncate a time-series index</h1>
        <p class="error" role="alert">
          {props.refusal}
        </p>
        <p class="hint">Truncation needs the TRUNCATE_TIMESERIES_INDEX_PRIVILEGE (the Admin role holds it).</p>
      </section>
    );
  }

  const chosen = indices?.find((i) => i.indexName === index);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const runDry = () =>
    run(async () => {
      const target = { entityType: chosen!.entityName, aspect: chosen!.aspectName, endTimeMillis: utcMidnight(day) };
      const text = await dryRun(target);
      setStep({ step: 'dry-run', target, text, matching: dryRunCounts(text)?.matching });
    });
  const reset = () => setStep({ step: 'choose' });

  return (
    <section aria-labelledby="truncate-title">
      <h1 id="truncate-title">Truncate a time-series index</h1>
      <form
        class="truncate"
        onSubmit={(event) => {
          event.preventDefault();
          void runDry();
        }}
      >
        <div class="field">
          <label for="truncate-index">Index</label>
          <select
            id="truncate-index"
            name="index"
            value={index}
            onChange={(e) => (setIndex(e.currentTarget.value), reset())}
            disabled={step.step === 'running'}
          >
            {indices?.map((i) => (
              <option value={i.indexName}>
                {i.entityName} · {i.aspectName} ({humanMb(i.sizeMb)})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="truncate-cutoff">Delete rows up to (UTC midnight of)</label>
          <input
            id="truncate-cutoff"
            name="cutoff"
            type="date"
            required
            value={day}
            onInput={(e) => (setDay(e.currentTarget.value), reset())}
            disabled={step.step === 'running'}
          />
        </div>
        <button type="submit" disabled={busy || !chosen || Number.isNaN(utcMidnight(day)) || step.step === 'running'}>
          Dry run
        </button>
      </form>
      {indices?.length === 0 && <p>No time-series index to truncate.</p>}
      <ErrorText error={error} />
      {step.step !== 'choose' && (
        <div class="panel">
          <h2>Dry run</h2>
          <output data-testid="dry-run">{step.text}</output>
          {step.step === 'dry-run' && step.matching !== undefined && step.matching > 0 && (
            <p>
              <button type="button" class="danger" onClick={() => setStep({ ...step, step: 'confirm', matching: step.matching! })}>
                Execute…
              </button>
            </p>
          )}
          {step.step === 'confirm' && (
            <div role="alertdialog" aria-labelledby="confirm-text" class="confirm">
              <p id="confirm-text">
                Delete {count(step.matching)} rows of <code>{index}</code> (timestamps up to {day} 00:00 UTC)? This cannot be undone.
              </p>
              <button
                type="button"
                class="danger"
                disabled={busy}
                onClick={() =>
                  void run(async () =>
                    setStep({ step: 'running', target: step.target, text: step.text, task: await startTruncation(step.target) }),
                  )
                }
              >
                Delete {count(step.matching)} rows
              </button>{' '}
              <button type="button" onClick={() => setStep({ ...step, step: 'dry-run' })}>
                Cancel
              </button>
            </div>
          )}
        </div>
      )}
      {step.step === 'running' && (
        <TaskProgress
          task={step.task}
          onDone={() => {
            reset();
            setAsked((n) => n + 1);
          }}
        />
      )}
    </section>
  );
}
