export interface BundleSize {
  initial: number;
  total: number;
  chunks: number;
  lazy: string[];
  /** Gzip bytes of the chunks of each `groups` name. */
  named: Record<string, number>;
}
export declare function bundleSize(result: unknown): BundleSize;
export declare function measureApp(options: {
  root: string;
  entry?: string;
  outDir?: string;
  alias?: unknown;
  plugins?: unknown[];
  /** Modules whose id matches `test` go to a chunk `name` of their own (without their dependencies). */
  groups?: Array<{ name: string; test: RegExp }>;
}): Promise<BundleSize>;
export declare function measureAppEsbuild(options: {
  root: string;
  entry: string;
}): Promise<BundleSize>;
export declare const kB: (bytes: number) => number;
