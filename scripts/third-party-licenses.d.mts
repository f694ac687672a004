export declare function addBundledPackages(
  packages: Map<string, string>,
  paths: Iterable<string>,
): Map<string, string>;
export declare function licenseNotices(
  packages: Map<string, string>,
  title: string,
  intro: string,
): string;
