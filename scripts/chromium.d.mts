export declare const chromiumPath: string;
export declare const chromiumArgs: string[];
export declare function chromiumFound(): boolean;
export declare const installHint: string;
