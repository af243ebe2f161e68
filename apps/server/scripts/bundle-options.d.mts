import type { BuildOptions, Plugin } from 'esbuild';

export declare const keepSourceLocation: Plugin;
export declare const nodeBundle: BuildOptions;
