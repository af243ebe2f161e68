import { NetworkError, ServerError } from './api';

/** A failure as the server wrote it (with its HTTP status), or the network's; nothing when there is none. */
export function ErrorText(props: { error: unknown; prefix?: string }) {
  const { error } = props;
  if (error === undefined) return null;
  const text =
    error instanceof ServerError
      ? `${error.message}${error.status === 200 ? '' : ` (HTTP ${error.status})`}`
      : error instanceof NetworkError
        ? error.message
        : String(error);
  return (
    <p class="error" role="alert">
      {props.prefix}
      {text}
    </p>
  );
}
