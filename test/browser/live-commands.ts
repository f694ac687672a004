// The page-side types of the browser commands in live-server-commands.ts,
// shared by every browser test that starts a live server.
declare module 'vitest/browser' {
  interface BrowserCommands {
    startLiveServer(options: {
      total: number;
      initial: number;
      seed?: number;
    }): Promise<{ id: string; url: string }>;
    appendLiveEvents(id: string, count: number): Promise<number>;
    dropLiveConnections(id: string): Promise<number>;
    liveServerLog(id: string): Promise<string[]>;
    stopLiveServer(id: string): Promise<void>;
  }
}

export {};
