/**
 * Every command group, in the order `kactl --help` lists them. A group module exports one
 * `register(program, ctx)` that adds its commands; nothing here runs any of them.
 */
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { registerProfileCommands } from './profile/index.js';
import { registerSandboxCommands } from './sandbox/index.js';
import { registerClientCommands } from './client/index.js';
import { registerSellerCall } from './seller/call.js';
import { registerSellerGroups } from './seller/index.js';
import { registerDemoCommand } from './demo.js';

export type RegisterCommands = (program: Command, ctx: Context) => void;

export const COMMAND_GROUPS: readonly RegisterCommands[] = [
  registerProfileCommands,
  registerClientCommands,
  registerSellerGroups,
  registerSellerCall,
  registerSandboxCommands,
  registerDemoCommand,
];
