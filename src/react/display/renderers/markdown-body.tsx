// The part of the markdown renderer that needs react-markdown and remark-gfm
// (most of `<Display>`'s weight): loaded on first use by `markdown.tsx`
// through a dynamic import, so apps that never show markdown never
// download it.
import { memo, useMemo, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import Markdown, { type Components, type ExtraProps, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from '../copy-button.js';
import type { Trust } from '../types.js';
import { imageUrlKind, safeImageUrl, safeLinkUrl } from '../url-policy.js';

/**
 * One markdown chunk, parsed and drawn by react-markdown with skein's URL
 * policy and components (see `MarkdownRenderer` for the rules).
 *
 * @example
 * import { MarkdownChunk } from 'src/react/display/renderers/markdown-body.js';
 * <MarkdownChunk text="**hi**" trust="untrusted" maxImageBytes={1e7} />;
 */
export const MarkdownChunk = memo(function MarkdownChunk({
  text,
  trust,
  maxImageBytes,
}: {
  text: string;
  trust: Trust;
  maxImageBytes: number;
}) {
  const components = trust === 'trusted' ? trustedComponents : untrustedComponents;
  const urlTransform = useMemo(() => urlTransformFor(maxImageBytes), [maxImageBytes]);
  return (
    <Markdown
      remarkPlugins={remarkPlugins}
      components={components}
      urlTransform={urlTransform}
      // Belt and braces: remarkHtmlAsText already turned HTML into text.
      skipHtml
    >
      {text}
    </Markdown>
  );
});

// ---------------------------------------------------------------------------
// URL policy and components
// ---------------------------------------------------------------------------

function urlTransformFor(maxImageBytes: number): UrlTransform {
  return (url, key) => {
    if (key === 'src') return safeImageUrl(url, maxImageBytes) ?? null;
    // `href` (links, definitions, autolinks) and anything else that is a URL.
    return safeLinkUrl(url) ?? null;
  };
}

type AnchorProps = ComponentPropsWithoutRef<'a'> & ExtraProps;

function SafeLink({ href, children, title }: AnchorProps) {
  // urlTransform already dropped unsafe URLs; check again so a custom
  // transform or a future react-markdown change cannot reintroduce them.
  const safe = href ? safeLinkUrl(href) : undefined;
  if (!safe) return <span className="skein-md__unlinked">{children}</span>;
  return (
    <a href={safe} title={title} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

type ImageProps = ComponentPropsWithoutRef<'img'> & ExtraProps;

function imageComponent(trust: Trust) {
  return function SafeImage({ src, alt, title }: ImageProps) {
    const url = typeof src === 'string' ? safeImageUrl(src) : undefined;
    const kind = url ? imageUrlKind(url) : undefined;
    if (!url || !kind) {
      return <span className="skein-md__unlinked">{alt ? `[image: ${alt}]` : '[image]'}</span>;
    }
    if (kind === 'remote' && trust !== 'trusted') {
      return <ClickToLoadImage src={url} alt={alt ?? ''} title={title} />;
    }
    return <img src={url} alt={alt ?? ''} title={title} referrerPolicy="no-referrer" />;
  };
}

/**
 * A remote image in untrusted output: nothing is requested until the user
 * asks, so a tracking pixel cannot report that the output was viewed.
 */
function ClickToLoadImage({ src, alt, title }: { src: string; alt: string; title?: string }) {
  const [load, setLoad] = useState(false);
  if (load) return <img src={src} alt={alt} title={title} referrerPolicy="no-referrer" />;
  const host = new URL(src).host;
  return (
    <button
      type="button"
      className="skein-display__button skein-md__image-placeholder"
      onClick={() => setLoad(true)}
    >
      Load image{alt ? ` “${alt}”` : ''} from {host}
    </button>
  );
}

type PreProps = ComponentPropsWithoutRef<'pre'> & ExtraProps;

function CodeBlock({ children, node }: PreProps) {
  const code = node ? hastText(node) : '';
  const first = node?.children[0];
  const classes = first && first.type === 'element' ? first.properties['className'] : undefined;
  const language = Array.isArray(classes)
    ? classes
        .map(String)
        .find((c) => c.startsWith('language-'))
        ?.slice('language-'.length)
    : undefined;
  return (
    <div className="skein-md__code">
      <CopyButton text={code} label={language ? `Copy ${language} code` : 'Copy code'} />
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe scrollable-region-focusable */}
      <pre tabIndex={0}>{children}</pre>
    </div>
  );
}

interface HastLike {
  type: string;
  value?: string;
  children?: HastLike[];
}

function hastText(node: HastLike): string {
  if (node.type === 'text') return node.value ?? '';
  let out = '';
  for (const child of node.children ?? []) out += hastText(child);
  return out;
}

function Table({ children }: ComponentPropsWithoutRef<'table'> & ExtraProps): ReactNode {
  // Wide tables scroll on their own instead of widening the transcript.
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be keyboard reachable (axe scrollable-region-focusable)
    <div className="skein-md__table" tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

type InputProps = ComponentPropsWithoutRef<'input'> & ExtraProps;

/** GFM task-list boxes: read-only, and named, since they have no <label>. */
function TaskCheckbox({ type, checked }: InputProps) {
  if (type !== 'checkbox') return null;
  return (
    <input
      type="checkbox"
      checked={checked ?? false}
      disabled
      readOnly
      aria-label={checked ? 'Done' : 'Not done'}
    />
  );
}

const baseComponents: Components = {
  a: SafeLink,
  pre: CodeBlock,
  table: Table,
  input: TaskCheckbox,
};
const untrustedComponents: Components = { ...baseComponents, img: imageComponent('untrusted') };
const trustedComponents: Components = { ...baseComponents, img: imageComponent('trusted') };

// ---------------------------------------------------------------------------
// Remark plugin: raw HTML becomes literal text
// ---------------------------------------------------------------------------

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/**
 * Shows raw HTML in markdown as the text it is, instead of dropping it
 * (`skipHtml`) — a reader sees what the agent wrote, and nothing is parsed as
 * HTML. Iterative: deep documents must not overflow the stack.
 */
function remarkHtmlAsText() {
  return (tree: MdNode) => {
    const stack: MdNode[] = [tree];
    while (stack.length) {
      const node = stack.pop()!;
      if (node.type === 'html') node.type = 'text';
      if (node.children) stack.push(...node.children);
    }
  };
}

const remarkPlugins = [remarkGfm, remarkHtmlAsText];
