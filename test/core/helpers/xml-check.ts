// A strict little XML well-formedness check for the SVG tests (Node has no
// DOMParser): balanced tags, quoted attributes without duplicates, and only
// the five predefined or numeric entities in text and attribute values.
// It covers what renderTimelineSvg writes, not all of XML (no DOCTYPE, CDATA
// or processing instructions besides an XML declaration).

const NAME = '[A-Za-z_][\\w.:-]*';
const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const TAG = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>$`);
const ATTR = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');

function checkText(text: string, where: string): void {
  const stripped = text.replace(ENTITY, '');
  if (stripped.includes('&'))
    throw new Error(`bare & in ${where}: ${JSON.stringify(text.slice(0, 80))}`);
  if (stripped.includes('<')) throw new Error(`bare < in ${where}`);
}

/** The parsed element tree, for structural assertions. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Throws unless `xml` is well-formed; returns the root element. */
export function parseXml(xml: string): XmlElement {
  const doc = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    const text = doc.slice(i, lt < 0 ? doc.length : lt);
    if (text.trim() !== '') {
      if (stack.length === 0) throw new Error('text outside the root element');
      checkText(text, 'text');
      stack[stack.length - 1]!.text += text;
    }
    if (lt < 0) break;
    if (doc.startsWith('<!--', lt)) {
      const end = doc.indexOf('-->', lt);
      if (end < 0) throw new Error('unterminated comment');
      i = end + 3;
      continue;
    }
    // Find the tag's end, skipping quoted attribute values (they may hold `>`).
    let j = lt + 1;
    let quote = '';
    for (; j < doc.length; j++) {
      const c = doc[j]!;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '<') throw new Error(`< inside a tag at ${j}`);
      else if (c === '>') break;
    }
    const raw = doc.slice(lt, j + 1);
    const m = TAG.exec(raw);
    if (!m) throw new Error(`malformed tag ${JSON.stringify(raw.slice(0, 80))}`);
    const [, closing, name, attrs, selfClosing] = m;
    if (closing) {
      const open = stack.pop();
      if (!open || open.name !== name)
        throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
    } else {
      const attributes: Record<string, string> = {};
      for (const a of attrs!.matchAll(ATTR)) {
        const key = a[1]!;
        const value = a[2] ?? a[3] ?? '';
        if (key in attributes) throw new Error(`duplicate attribute ${key} on <${name}>`);
        checkText(value, `attribute ${key}`);
        attributes[key] = value;
      }
      const element: XmlElement = { name: name!, attributes, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root) throw new Error('more than one root element');
      else root = element;
      if (!selfClosing) stack.push(element);
    }
    i = j + 1;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element below (and including) `root`, depth-first. */
export function allElements(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [root];
  for (const child of root.children) out.push(...allElements(child));
  return out;
}
