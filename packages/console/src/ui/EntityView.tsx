import { useEffect, useState } from 'preact/hooks';
import { graphql, request } from './api';
import { ENTITY_QUERY, openApiPath } from './catalog-api';
import { ErrorText } from './ErrorText';

export interface View {
  urn: string;
  kind: 'graphql' | 'openapi';
}

/**
 * One entity as the GraphQL API or the OpenAPI v3 API answers it, fetched with the session's token (a plain link
 * would carry none), with what to paste into GraphiQL or Swagger UI to explore further.
 */
export function EntityView(props: { view: View; onClose: () => void }) {
  const { urn, kind } = props.view;
  const [answer, setAnswer] = useState<unknown>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    setAnswer(undefined);
    setError(undefined);
    const read = kind === 'graphql' ? graphql(ENTITY_QUERY, { urn }) : request('GET', openApiPath(urn));
    read.then(setAnswer, setError);
  }, [urn, kind]);

  return (
    <div class="panel" role="region" aria-labelledby="view-title">
      <h2 id="view-title">
        {kind === 'graphql' ? 'GraphQL' : 'OpenAPI'} view of <code>{urn}</code>
      </h2>
      {kind === 'graphql' ? (
        <p class="hint">
          Run in <a href="/api/graphiql">GraphiQL</a> with variables <code>{JSON.stringify({ urn })}</code>:<pre>{ENTITY_QUERY}</pre>
        </p>
      ) : (
        <p class="hint">
          <code>GET {openApiPath(urn)}</code> (also in <a href="/openapi/swagger-ui/index.html">Swagger UI</a>)
        </p>
      )}
      <ErrorText error={error} />
      {answer !== undefined && <pre data-testid="entity-answer">{JSON.stringify(answer, null, 2)}</pre>}
      <button type="button" onClick={props.onClose}>
        Close
      </button>
    </div>
  );
}
