// Types of scripts/source-stamp.mjs, for the tests that import it.
export interface SourceStamp {
  files: Record<string, string>;
}
export declare const STAMP_FILE: string;
export declare function sourceStamp(root: string): SourceStamp;
export declare function staleBuildReason(root: string): string | undefined;
export declare function beginBuildStamp(root: string): void;
export declare function endBuildStamp(root: string): void;
