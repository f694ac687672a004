/**
 * Text the run generator draws from: tasks, markdown answers, reasoning,
 * shell commands with their output, tool results, log lines and tracebacks.
 *
 * Everything is a constant shared by every generated event, so a million
 * events cost a million references, not a million strings. The texts are
 * written to exercise renderers: markdown with headings, lists, tables, code
 * fences and links; multi-line outputs; ANSI colour codes.
 */

/** A task a sample starts from, and the answer the scorer expects. */
export interface TaskText {
  readonly input: string;
  readonly target: string;
}

export const TASKS: readonly TaskText[] = [
  {
    input:
      'Write a Node.js TypeScript utility that decodes AIS messages and add tests for types 1, 5 and 21.',
    target: 'A working decoder with passing tests for message types 1, 5 and 21.',
  },
  {
    input: 'Find and fix the race condition in `worker/pool.py` that makes `test_shutdown` flaky.',
    target: 'The shutdown path awaits in-flight jobs before closing the queue.',
  },
  {
    input:
      'Summarise the security advisories published for `libxml2` in the last year and rate their impact.',
    target: 'A table of advisories with CVSS scores and a short impact note for each.',
  },
  {
    input:
      'Port the CSV export in `reports/export.rb` to Python and keep the output byte-identical.',
    target: 'A Python exporter whose output matches the Ruby one on the fixtures.',
  },
  {
    input:
      'The nightly build fails with `error: linker command failed`. Find the cause and fix the build.',
    target: 'The missing `-lm` flag is added to the link step.',
  },
];

export const SYSTEM_PROMPTS: readonly string[] = [
  'You are a careful software engineer working in a Linux sandbox. Use the tools to inspect the repository, make changes, and verify them by running the tests. When you are done, call `submit()` with a short summary.',
  'You are a research agent. Search for primary sources, read them, and report findings with citations. Prefer official advisories over blog posts.',
  'You are a code reviewer. Read the diff you are given and report bugs, missing tests and unclear names. Be specific: quote the line.',
  'You are a test engineer. Write focused tests that fail before the fix and pass after it. Run them and report the output.',
  'You are a planner. Break the task into small, verifiable steps and assign each to the right specialist.',
];

/** Markdown an assistant writes before or instead of tool calls. */
export const ASSISTANT_TEXTS: readonly string[] = [
  "I'll start by looking at the repository layout to see where the relevant code lives.",
  'Let me check the failing test output first, then narrow down the cause.',
  '## Findings so far\n\n- The decoder handles the 6-bit armouring correctly.\n- Message type **5** spans two sentences and needs reassembly.\n- Checksums are not validated yet.\n\nNext I will add checksum validation and a test for it.',
  'The test fails because `close()` runs before the workers drain the queue:\n\n```python\nawait self.queue.put(None)\nself.closed = True  # workers may still be running here\n```\n\nI will await the workers before setting `closed`.',
  '| advisory | CVSS | impact |\n| --- | ---: | --- |\n| CVE-2025-32414 | 7.5 | out-of-bounds read in the Python bindings |\n| CVE-2025-32415 | 5.3 | heap under-read in schema validation |\n| CVE-2025-6021 | 7.5 | integer overflow in `xmlBuildQName` |\n\nThe two 7.5 issues are reachable from untrusted input.',
  'The build log shows the linker cannot resolve `sqrt` and `floor`, so `libm` is missing from the link line. Adding `-lm` after the object files should fix it.',
  "All tests pass now:\n\n```\n  ✓ decodes type 1 position reports (4 ms)\n  ✓ reassembles type 5 from two fragments (2 ms)\n  ✓ decodes type 21 aids to navigation (1 ms)\n\nTests: 3 passed, 3 total\n```\n\nI'll run the linter before submitting.",
  'I need more context on how the exporter quotes fields. Let me read the Ruby implementation and the fixtures side by side.',
  '### Plan\n\n1. Reproduce the failure locally.\n2. Add a regression test.\n3. Fix the ordering in `Pool.shutdown`.\n4. Run the whole suite three times to check for flakiness.',
  'The output differs only in line endings: Ruby writes `\\r\\n` and my port writes `\\n`. Setting `lineterminator="\\r\\n"` on the writer makes them byte-identical.',
  "Let me delegate: the researcher gathers the advisories while the coder sets up the test harness. I'll review both results.",
  'Done. Summary of the change:\n\n- `src/decode.ts`: checksum validation and multi-sentence reassembly\n- `test/decode.test.ts`: 3 new tests\n- `README.md`: usage example\n\nSee [the AIS spec](https://gpsd.gitlab.io/gpsd/AIVDM.html) for the field tables.',
];

/** The final answer an agent gives when it stops calling tools. */
export const FINAL_ANSWERS: readonly string[] = [
  'The fix is in place and all tests pass. The shutdown path now awaits in-flight jobs before closing the queue, which removes the race in `test_shutdown` (50/50 green runs).',
  'I built the decoder in `src/decode.ts` with tests for types 1, 5 and 21. Checksums are validated and two-part type 5 messages are reassembled.\n\n```bash\nnpm test\n```',
  '## Summary\n\nThree advisories affect `libxml2` this year; two are high severity (7.5) and reachable from untrusted XML. Upgrade to **2.14.4** or later.',
  'The exporter is ported. `diff <(ruby export.rb) <(python export.py)` is empty on all 12 fixtures.',
  'The build was missing `-lm`. With the flag added to `LDLIBS` the nightly target links and the smoke tests pass.',
];

export const REASONING_TEXTS: readonly string[] = [
  'The user wants a decoder. I should check whether a package.json exists, then decide between extending it and creating a new project. Type 5 messages are long, so they arrive in two fragments; I need to buffer by sequence id.',
  'The flaky test suggests ordering. If close() sets a flag before awaiting workers, a worker can observe closed=True mid-job. Let me confirm by reading pool.py around shutdown.',
  'Linker errors for sqrt/floor mean libm. On glibc, libm is separate. Check the Makefile for LDLIBS.',
  "I have enough information to answer. I'll present the advisories as a table, sorted by score.",
  'The diff is small but touches the quoting logic, which the fixtures cover well. Running the full comparison is the fastest proof.',
];

/** A shell command and what it printed; `exit` is its exit code. */
export interface CommandText {
  readonly cmd: string;
  readonly output: string;
  readonly exit: number;
}

export const COMMANDS: readonly CommandText[] = [
  {
    cmd: 'ls -la',
    output:
      'total 48\ndrwxr-xr-x 6 root root 4096 Jun 10 18:24 .\ndrwx------ 1 root root 4096 Jun 10 18:23 ..\n-rw-r--r-- 1 root root  812 Jun 10 18:24 package.json\ndrwxr-xr-x 2 root root 4096 Jun 10 18:24 src\ndrwxr-xr-x 2 root root 4096 Jun 10 18:24 test\n',
    exit: 0,
  },
  {
    cmd: 'cat package.json',
    output:
      '{\n  "name": "ais-decoder",\n  "version": "0.1.0",\n  "type": "module",\n  "scripts": { "test": "node --test" }\n}\n',
    exit: 0,
  },
  {
    cmd: 'npm test',
    output:
      '> ais-decoder@0.1.0 test\n> node --test\n\n✔ decodes type 1 position reports (4.1ms)\n✔ reassembles type 5 (2.3ms)\n✔ decodes type 21 (1.2ms)\nℹ tests 3\nℹ pass 3\nℹ fail 0\n',
    exit: 0,
  },
  {
    cmd: 'python -m pytest -x -q tests/test_pool.py',
    output:
      'F\n=================================== FAILURES ===================================\n________________________________ test_shutdown _________________________________\n    assert pool.completed == 100\nE   assert 97 == 100\n1 failed in 0.42s\n',
    exit: 1,
  },
  {
    cmd: 'python -m pytest -q',
    output: '........................................................ [100%]\n56 passed in 3.81s\n',
    exit: 0,
  },
  {
    cmd: 'grep -rn "def shutdown" worker/',
    output: 'worker/pool.py:88:    async def shutdown(self, timeout: float = 5.0) -> None:\n',
    exit: 0,
  },
  {
    cmd: 'git diff --stat',
    output:
      ' worker/pool.py        | 6 ++++--\n tests/test_pool.py    | 14 ++++++++++++++\n 2 files changed, 18 insertions(+), 2 deletions(-)\n',
    exit: 0,
  },
  {
    cmd: 'make nightly',
    output:
      "cc -O2 -o bin/sim obj/main.o obj/physics.o\n/usr/bin/ld: obj/physics.o: undefined reference to symbol 'sqrt@@GLIBC_2.2.5'\ncollect2: error: ld returned 1 exit status\nmake: *** [Makefile:14: bin/sim] Error 1\n",
    exit: 2,
  },
  {
    cmd: 'find . -name "*.rb" | head',
    output: './reports/export.rb\n./reports/format.rb\n./spec/export_spec.rb\n',
    exit: 0,
  },
  { cmd: 'wc -l reports/export.rb', output: '212 reports/export.rb\n', exit: 0 },
  { cmd: 'npx tsc --noEmit', output: '', exit: 0 },
  {
    cmd: 'cat /etc/os-release | head -3',
    output:
      'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\n',
    exit: 0,
  },
];

export const PYTHON_SNIPPETS: readonly CommandText[] = [
  {
    cmd: 'import csv, io\nbuf = io.StringIO()\ncsv.writer(buf, lineterminator="\\r\\n").writerow(["a", "b,c"])\nprint(repr(buf.getvalue()))',
    output: '\'a,"b,c"\\r\\n\'\n',
    exit: 0,
  },
  {
    cmd: 'import math\nprint([round(math.sqrt(x), 3) for x in range(5)])',
    output: '[0.0, 1.0, 1.414, 1.732, 2.0]\n',
    exit: 0,
  },
  {
    cmd: 'from worker.pool import Pool\nprint(Pool.shutdown.__doc__)',
    output: 'Stop accepting jobs and wait for running ones.\n',
    exit: 0,
  },
];

export const FILE_PATHS: readonly string[] = [
  'src/decode.ts',
  'test/decode.test.ts',
  'worker/pool.py',
  'tests/test_pool.py',
  'reports/export.py',
  'Makefile',
  'README.md',
];

export const FILE_CONTENTS: readonly string[] = [
  "export function decode(sentence: string): AisMessage {\n  const [, , , , , payload, fill] = sentence.split(',');\n  return unpack(armour(payload), Number(fill));\n}\n",
  'async def shutdown(self, timeout: float = 5.0) -> None:\n    await self.queue.join()\n    self.closed = True\n',
  'LDLIBS += -lm\n\nbin/sim: $(OBJ)\n\t$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)\n',
];

export const SEARCH_QUERIES: readonly string[] = [
  'libxml2 CVE 2025 advisory',
  'AIS message type 5 two sentence reassembly',
  'python asyncio queue join shutdown race',
  'glibc undefined reference sqrt -lm',
];

export const SEARCH_RESULTS: readonly string[] = [
  '1. [libxml2 security advisories](https://gitlab.gnome.org/GNOME/libxml2/-/security) — list of fixed CVEs by release\n2. [NVD: CVE-2025-32414](https://nvd.nist.gov/vuln/detail/CVE-2025-32414) — out-of-bounds read in Python bindings\n3. [oss-security mailing list](https://www.openwall.com/lists/oss-security/) — discussion thread',
  '1. [AIVDM/AIVDO protocol decoding](https://gpsd.gitlab.io/gpsd/AIVDM.html) — fragment count, fragment number and sequential message id\n2. [ITU-R M.1371-5](https://www.itu.int/rec/R-REC-M.1371) — the standard',
  '1. [asyncio.Queue.join](https://docs.python.org/3/library/asyncio-queue.html) — blocks until all items have been processed\n2. [Graceful shutdown patterns](https://example.org/asyncio-shutdown) — cancel, drain, close',
];

export const THOUGHTS: readonly string[] = [
  'The flag must be set after the queue is drained, not before.',
  'Two fragments share a sequence id; buffer until the last fragment arrives.',
  'The Ruby exporter quotes every field containing a comma or a quote; csv.QUOTE_MINIMAL does the same.',
];

export const INFO_TEXTS: readonly string[] = [
  'Checkpoint saved after turn 3 (92 KB).',
  '**Plan updated**: 4 steps remaining.',
  'Switching to the fallback search provider.',
  'Context at 71% of the window; compaction will run soon.',
];

/** `[logger name, level, message, filename, module, lineno]`. */
export const LOG_LINES: readonly (readonly [string, string, string, string, string, number])[] = [
  [
    'httpx',
    'info',
    'HTTP Request: POST https://api.anthropic.com/v1/messages "HTTP/1.1 200 OK"',
    '_client.py',
    '_client',
    1025,
  ],
  [
    'inspect_ai',
    'warning',
    'Retrying request to /v1/messages in 2.0 seconds (rate limit)',
    '_retry.py',
    '_retry',
    87,
  ],
  [
    'inspect_ai.sandbox',
    'sandbox',
    'exec: bash --login -c "npm test" (timeout 180s)',
    '_docker.py',
    '_docker',
    312,
  ],
  [
    'inspect_ai',
    'info',
    'Compacting conversation: 182,344 tokens → 14,020 tokens',
    '_compaction.py',
    '_compaction',
    141,
  ],
  [
    'asyncio',
    'debug',
    'Using selector: EpollSelector',
    'selector_events.py',
    'selector_events',
    54,
  ],
];

export const TOOL_ERRORS: readonly (readonly [string, string])[] = [
  ['timeout', 'Command timed out before completing.'],
  ['file_not_found', 'File not found: /root/src/legacy_decode.ts'],
  ['permission', 'Permission denied: /etc/shadow'],
  [
    'parsing',
    'Found 1 validation error parsing tool input arguments:\n- cmd is a required property',
  ],
];

export const MODEL_ERRORS: readonly string[] = [
  "RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your per-minute rate limit'}}",
  "APIStatusError: Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}",
  'APITimeoutError: Request timed out.',
];

export const AGENT_ERRORS: readonly string[] = [
  "RuntimeError: sandbox 'default' is not running (container exited with code 137)",
  "KeyError: 'submission'",
  "ValueError: Tool call 'researcher' returned no output",
];

/** One frame of a Python traceback: file, line, function, source text. */
type Frame = readonly [string, number, string, string];

const TRACEBACK_FRAMES: readonly Frame[] = [
  [
    '/usr/lib/python3.12/site-packages/inspect_ai/model/_model.py',
    412,
    'generate',
    'output = await self._generate(input, tools, tool_choice, config)',
  ],
  [
    '/usr/lib/python3.12/site-packages/inspect_ai/model/_providers/anthropic.py',
    298,
    'generate',
    'message = await self.client.messages.create(**request)',
  ],
  [
    '/usr/lib/python3.12/site-packages/anthropic/_base_client.py',
    1634,
    'request',
    'raise self._make_status_error_from_response(err.response) from None',
  ],
  [
    '/usr/lib/python3.12/site-packages/inspect_ai/agent/_react.py',
    233,
    'execute',
    'messages, output = await execute_tools(state.messages, tools)',
  ],
  [
    '/usr/lib/python3.12/site-packages/inspect_ai/util/_sandbox/docker/docker.py',
    214,
    'exec',
    'raise RuntimeError(f"sandbox {name!r} is not running")',
  ],
];

// SGR codes as rich (which inspect uses to render tracebacks) emits them.
const ESC = '\u001b[';
const RED_BOLD = `${ESC}1;31m`;
const CYAN = `${ESC}36m`;
const YELLOW = `${ESC}33m`;
const GREEN = `${ESC}32m`;
const DIM = `${ESC}2m`;
const RESET = `${ESC}0m`;

/** A traceback as text and as ANSI-coloured text, the two fields inspect writes. */
export interface TracebackText {
  readonly traceback: string;
  readonly traceback_ansi: string;
}

function buildTraceback(frames: readonly Frame[], error: string): TracebackText {
  const plain: string[] = ['Traceback (most recent call last):'];
  const ansi: string[] = [`${RED_BOLD}Traceback${RESET} ${DIM}(most recent call last):${RESET}`];
  for (const [file, line, fn, source] of frames) {
    plain.push(`  File "${file}", line ${line}, in ${fn}`, `    ${source}`);
    ansi.push(
      `  File ${CYAN}"${file}"${RESET}, line ${YELLOW}${line}${RESET}, in ${GREEN}${fn}${RESET}`,
      `    ${source}`,
    );
  }
  const colon = error.indexOf(':');
  plain.push(error);
  ansi.push(
    colon === -1
      ? `${RED_BOLD}${error}${RESET}`
      : `${RED_BOLD}${error.slice(0, colon)}${RESET}:${error.slice(colon + 1)}`,
  );
  return { traceback: `${plain.join('\n')}\n`, traceback_ansi: `${ansi.join('\n')}\n` };
}

/** Tracebacks for {@link MODEL_ERRORS}, index for index. */
export const MODEL_TRACEBACKS: readonly TracebackText[] = MODEL_ERRORS.map((error) =>
  buildTraceback(TRACEBACK_FRAMES.slice(0, 3), error),
);

/** Tracebacks for {@link AGENT_ERRORS}, index for index. */
export const AGENT_TRACEBACKS: readonly TracebackText[] = AGENT_ERRORS.map((error) =>
  buildTraceback([TRACEBACK_FRAMES[3]!, TRACEBACK_FRAMES[4]!], error),
);

export const AGENT_NAMES: readonly string[] = [
  'researcher',
  'coder',
  'reviewer',
  'tester',
  'planner',
  'explorer',
  'summarizer',
  'critic',
  'debugger',
  'writer',
];

export const AGENT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  researcher: 'Searches the web and reads sources to answer a question.',
  coder: 'Writes and edits code in the sandbox.',
  reviewer: 'Reviews a change and reports problems.',
  tester: 'Writes and runs tests.',
  planner: 'Breaks a task into steps.',
  explorer: 'Explores the repository and reports what it finds.',
  summarizer: 'Condenses long material into a short summary.',
  critic: 'Looks for flaws in a proposed answer.',
  debugger: 'Reproduces and isolates a failure.',
  writer: 'Writes documentation and reports.',
};

export const SCORE_EXPLANATIONS: readonly string[] = [
  'The submission implements the requested behaviour and the tests demonstrate it. GRADE: C',
  'The submission addresses the task only partially: the reassembly of multi-part messages is missing. GRADE: I',
];
