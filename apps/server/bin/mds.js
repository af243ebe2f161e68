#!/usr/bin/env node
// Runs the TypeScript CLI straight from source (no build step), through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
