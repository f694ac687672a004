export interface BundleSize {
  initial: number;
  total: number;
  chunks: number;
  lazy: string[];
}
export declare function bundleSize(result: unknown): BundleSize;
export declare function measureApp(options: {
  root: string;
  entry?: string;
  outDir?: string;
  alias?: unknown;
  plugins?: unknown[];
}): Promise<BundleSize>;
export declare const kB: (bytes: number) => number;
