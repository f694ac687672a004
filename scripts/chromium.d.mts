export declare const playwrightChromium: string | undefined;
export declare const chromiumPath: string;
export declare const chromiumArgs: string[];
export declare function chromiumFound(): boolean;
export declare const installHint: string;
