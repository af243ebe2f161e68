import { version } from './version';

/**
 * `GET /config`: what DataHub's Python emitter and CLI ask GMS before anything else (entities-api §7.7). The SDK
 * refuses a server whose answer lacks `"noCode":"true"` (it takes it for DataHub's frontend), and a reported version
 * of v1.0.1 or later would switch SDK-mode clients to OpenAPI: v1.0.0 keeps them on Rest.li.
 */
export function datahubConfig(commit = process.env.MDS_COMMIT ?? 'unknown') {
  return {
    noCode: 'true',
    retention: 'true',
    statefulIngestionCapable: true,
    patchCapable: true,
    supportsImpactAnalysis: false,
    versions: { 'acryldata/datahub': { version: 'v1.0.0', commit } },
    datahub: { serverType: 'prod' },
    managedIngestion: { enabled: false },
    telemetry: { enabledCli: false, enabledIngestion: false },
    models: {},
    mds: { version },
  };
}
