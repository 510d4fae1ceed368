/**
 * `kactl demo`: the whole story against an in-process sandbox. Owned by the client-flows work;
 * registers nothing until that lands.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';

export function registerDemoCommand(_program: Command, _ctx: Context): void {}
