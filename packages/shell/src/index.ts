export { createShell, type CreateShellDeps, type Shell } from './module';
export { FEATURE_FLAGS, parseShellConfig, ShellConfigError, type FeatureFlags, type ShellConfig } from './config';
export { PLATFORM_FLAGS, PLATFORM_PRIVILEGES, RESOURCE_PRIVILEGES } from './privileges';
export { GLOBAL_SETTINGS_URN, ShellService, STEP_STATE_URN_PREFIX, type Post, type View } from './service';
