export declare const skeinAliases: { find: RegExp; replacement: string }[];
