/**
 * `kactl/sandbox`: a faithful local KeyAuth-style server in this process, for test suites:
 * start, seed, typed clients, outbox, clock, request log, faults, snapshots, reset, close, and
 * `audit()`, which runs a program once per scenario against one (docs/library.md).
 */
export { startSandbox } from './sandbox/start.js';
export type {
  Sandbox,
  SandboxClientOptions,
  SandboxClock,
  SandboxFaults,
  SandboxOutbox,
  SandboxSellerOptions,
  SandboxSnapshot,
  StartSandboxOptions,
} from './sandbox/types.js';
export type { SandboxState } from './sandbox/seed.js';
export { audit } from './sandbox/audit/runner.js';
export { AUDIT_SCENARIOS } from './sandbox/audit/catalog.js';
export type { AuditScenarioInfo } from './sandbox/audit/catalog.js';
export type { AuditOptions } from './sandbox/audit/options.js';
export type { AuditApi } from './sandbox/audit/scenario-types.js';
export type { AuditCounts, AuditOutcome, AuditReport, AuditRequest, AuditScenarioResult, AuditStatus } from './sandbox/audit/report.js';
export type { FaultRequest, SandboxFault } from './api/sandbox-faults.js';
export type { LoggedRequest, OutboxFilter, OutboxMessage, RequestApi, RequestLogFilter } from './api/sandbox-admin.js';
export type { KactlClient } from './api/kactl-client.js';
export type { KactlSeller } from './api/kactl-seller.js';
export type { Logger } from './api/logger.js';
export { SandboxConfigError } from './server/store/config-error.js';
export type { OptionSpelling, SandboxOptionName } from './server/store/config-error.js';
export { isKactlError, KactlError, SetupError, UsageError } from './api/errors.js';
