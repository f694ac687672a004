import { CopyButton } from '../copy-button.js';
import { expectText } from '../text.js';
import type { RendererProps } from '../types.js';
import { PlainText } from './plain-text.js';

/**
 * `text/latex`: the source in a labelled code block with a copy button. skein
 * ships no TeX engine; register a KaTeX/MathJax renderer for this MIME type
 * through `<DisplayProvider renderers>` to typeset it.
 *
 * @example
 * <Display bundle={{ data: { 'text/latex': '$$e^{i\\pi}+1=0$$' } }} />; // drawn by LatexRenderer
 */
export function LatexRenderer({ data, mimeType, budget }: RendererProps) {
  const text = expectText(data, mimeType);
  return (
    <figure className="skein-latex">
      <figcaption className="skein-latex__label">
        LaTeX <CopyButton text={text} label="Copy LaTeX source" />
      </figcaption>
      <PlainText text={text} limit={budget.chars} />
    </figure>
  );
}
