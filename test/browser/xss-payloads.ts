/**
 * Hostile inputs for the XSS suite (test/browser/xss.browser.test.tsx).
 *
 * Every payload, if it ever executes, calls `__xss(…)` (a spy on the host
 * window) or fetches a URL containing `xss` — `ORIGIN/__xss_probe/…` (replaced
 * with the test page's origin, so a request is observable) or
 * `https://xss.invalid/…`. The suite pushes each payload through every
 * default renderer, trusted and untrusted, and through every text field of
 * every event kind.
 */
export interface XssPayload {
  /** What the payload tries. */
  name: string;
  payload: string;
}

const P = 'ORIGIN/__xss_probe';

const list: [string, string][] = [
  // --- script elements -------------------------------------------------------
  ['script tag', '<script>__xss(1)</script>'],
  ['script tag, upper case', '<SCRIPT>__xss(2)</SCRIPT>'],
  ['script src', `<script src="${P}/script.js"></script>`],
  ['module script', '<script type="module">__xss(3)</script>'],
  ['split script tag', '<scr<script>ipt>__xss(4)</scr</script>ipt>'],
  ['script after closing tag', '</script><script>__xss(5)</script>'],
  ['script in svg', '<svg><script>__xss(6)</script></svg>'],
  ['script in svg with href', '<svg><script href="data:,__xss(7)"></script></svg>'],
  ['script in template', '<template><script>__xss(8)</script></template>'],
  [
    'script in noscript',
    '<noscript><p title="</noscript><img src=x onerror=__xss(9)>"></p></noscript>',
  ],
  ['comment breakout', '<!--<img src="--><img src=x onerror=__xss(10)//">'],
  ['xmp breakout', '<xmp><img src=x onerror=__xss(11)></xmp>'],
  ['CDATA in svg', '<svg><![CDATA[><img src=x onerror=__xss(12)>]]></svg>'],
  ['script with entity', '&lt;script&gt;__xss(13)&lt;/script&gt;'],
  // --- event handler attributes ---------------------------------------------
  ['img onerror', '<img src=x onerror=__xss(20)>'],
  ['img onerror, mixed case', '<img src=x OnErRoR=__xss(21)>'],
  ['img onerror, slashes', '<img/src=x/onerror=__xss(22)>'],
  ['img onerror, entities', '<img src=x onerror="&#95;&#95;xss(23)">'],
  ['img onerror eval src', '<img src="x:__xss(24)" onerror="eval(src.slice(2))">'],
  ['body onload', '<body onload=__xss(25)>'],
  ['svg onload', '<svg onload=__xss(26)>'],
  [
    'svg onload, xmlns',
    '<svg xmlns="http://www.w3.org/2000/svg" onload="__xss(27)"><rect width="1" height="1"/></svg>',
  ],
  ['details ontoggle', '<details open ontoggle=__xss(28)><summary>x</summary></details>'],
  ['input autofocus onfocus', '<input autofocus onfocus=__xss(29)>'],
  ['select autofocus', '<select autofocus onfocus=__xss(30)></select>'],
  ['textarea autofocus', '<textarea autofocus onfocus=__xss(31)></textarea>'],
  ['video source onerror', '<video><source onerror=__xss(32)></video>'],
  ['audio onerror', '<audio src=x onerror=__xss(33)></audio>'],
  ['marquee onstart', '<marquee onstart=__xss(34)>x</marquee>'],
  ['div onmouseover', '<div onmouseover=__xss(35)>hover</div>'],
  ['iframe onload', '<iframe onload=__xss(36)></iframe>'],
  ['object onerror', '<object data=x onerror=__xss(37)></object>'],
  ['style onload', '<style onload=__xss(38)></style>'],
  [
    'animation event',
    '<style>@keyframes x{}</style><div style="animation-name:x" onanimationstart=__xss(39)></div>',
  ],
  ['svg animate onbegin', '<svg><animate onbegin=__xss(40) attributeName=x dur=1s>'],
  ['svg set onbegin', '<svg><set onbegin=__xss(41) attributeName=x to=1>'],
  ['image tag onerror', '<image src=x onerror=__xss(42)>'],
  ['body onpageshow', '<body onpageshow=__xss(43)>'],
  ['contenteditable onfocus', '<div contenteditable autofocus onfocus=__xss(44)>x</div>'],
  ['a onfocus autofocus', '<a href="#" autofocus onfocus=__xss(45)>x</a>'],
  ['onerror via unicode escape', '<img src=x onerror=\\u005f_xss(46)>'],
  [
    'popover ontoggle',
    '<div popover id=p ontoggle=__xss(47)>x</div><button popovertarget=p>o</button>',
  ],
  // --- dangerous URLs in markup ---------------------------------------------
  ['javascript: link', '<a href="javascript:__xss(50)">click</a>'],
  ['javascript: link, mixed case', '<a href="JaVaScRiPt:__xss(51)">click</a>'],
  ['javascript: link, entity', '<a href="&#106;avascript:__xss(52)">click</a>'],
  ['javascript: link, tab', '<a href="java&#x09;script:__xss(53)">click</a>'],
  ['javascript: link, leading space', '<a href=" javascript:__xss(54)">click</a>'],
  ['data:text/html link', '<a href="data:text/html,<script>__xss(55)</script>">click</a>'],
  ['vbscript link', '<a href="vbscript:msgbox(56)">click</a>'],
  ['iframe javascript src', '<iframe src="javascript:parent.__xss(57)"></iframe>'],
  [
    'iframe data:text/html',
    '<iframe src="data:text/html,<script>parent.__xss(58)</script>"></iframe>',
  ],
  ['embed javascript', '<embed src="javascript:__xss(59)">'],
  ['object javascript', '<object data="javascript:__xss(60)"></object>'],
  ['form javascript action', '<form action="javascript:__xss(61)"><input type=submit></form>'],
  ['button formaction', '<form><button formaction="javascript:__xss(62)">x</button></form>'],
  ['math href', '<math href="javascript:__xss(63)">click</math>'],
  ['svg a xlink:href', '<svg><a xlink:href="javascript:__xss(64)"><text y="10">x</text></a></svg>'],
  [
    'svg animate href',
    '<svg><animate attributeName="href" values="javascript:__xss(65)"/><a id="a"><text y="10">x</text></a></svg>',
  ],
  ['link target top', `<a href="${P}/phish" target="_top">x</a>`],
  ['ping', `<a href="https://ok.example/" ping="${P}/ping">x</a>`],
  ['base javascript', '<base href="javascript:__xss(66)//">'],
  ['base remote', `<base href="${P}/base/"><img src="rel.png">`],
  ['meta refresh javascript', '<meta http-equiv="refresh" content="0;url=javascript:__xss(67)">'],
  ['meta refresh remote', `<meta http-equiv="refresh" content="0;url=${P}/refresh">`],
  [
    'meta csp loosening',
    '<meta http-equiv="Content-Security-Policy" content="script-src * \'unsafe-inline\'"><script>__xss(68)</script>',
  ],
  ['link stylesheet', `<link rel="stylesheet" href="${P}/style.css">`],
  ['link prefetch', `<link rel="prefetch" href="${P}/prefetch">`],
  ['link javascript', '<link rel="stylesheet" href="javascript:__xss(69)">'],
  // --- SVG --------------------------------------------------------------------
  [
    'svg use data',
    "<svg><use href=\"data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='x' onerror='__xss(70)'/></svg>#x\"/></svg>",
  ],
  [
    'svg foreignObject iframe',
    '<svg><foreignObject><iframe srcdoc="<script>parent.__xss(71)</script>"></iframe></foreignObject></svg>',
  ],
  ['svg image remote', `<svg><image href="${P}/svg-image.png" width="10" height="10"/></svg>`],
  [
    'svg xlink image remote',
    `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="${P}/svg-xlink.png"/></svg>`,
  ],
  ['svg style import', `<svg><style>@import url(${P}/svg.css);</style></svg>`],
  [
    'svg feImage',
    `<svg><filter id="f"><feImage href="${P}/fe.png"/></filter><rect filter="url(#f)" width="9" height="9"/></svg>`,
  ],
  ['svg handler in title', '<svg><title><img src=x onerror=__xss(72)></title></svg>'],
  ['svg fill remote', `<svg><rect fill="url(${P}/fill.svg#p)" width="9" height="9"/></svg>`],
  [
    'svg stroke remote, quoted',
    `<svg><rect stroke="url('${P}/stroke.svg#p')" stroke-width="3" width="9" height="9"/></svg>`,
  ],
  ['svg filter remote', `<svg><rect filter="url(${P}/filter.svg#f)" width="9" height="9"/></svg>`],
  ['svg mask remote', `<svg><rect mask="url(${P}/mask.svg#m)" width="9" height="9"/></svg>`],
  [
    'svg clip-path remote',
    `<svg><rect clip-path="url(${P}/clip.svg#c)" width="9" height="9"/></svg>`,
  ],
  [
    'svg markers remote',
    `<svg><path marker-start="url(${P}/ms.svg#m)" marker-mid="url(${P}/mm.svg#m)" marker-end="url(${P}/me.svg#m)" d="M0 0L5 5L9 9" stroke="black"/></svg>`,
  ],
  [
    'svg fill remote after a local one',
    `<svg><rect fill="url(#g) url(${P}/fill2.svg#p)" width="9" height="9"/></svg>`,
  ],
  [
    'svg fill escaped url',
    `<svg><rect fill="u\\rl(${P}/fill-escaped.svg#p)" width="9" height="9"/></svg>`,
  ],
  [
    'svg mask image-set',
    `<svg><rect mask="image-set('${P}/mask-set.png' 1x)" width="9" height="9"/></svg>`,
  ],
  [
    'svg use remote',
    `<svg><use href="${P}/use.svg#x"/><use xlink:href="${P}/use-xlink.svg#x"/></svg>`,
  ],
  // --- CSS --------------------------------------------------------------------
  ['style url()', `<div style="background:url(${P}/bg.png)">x</div>`],
  ['style expression', '<div style="width:expression(__xss(80))">x</div>'],
  ['style escaped url', `<div style="background:u\\rl(${P}/escaped.png)">x</div>`],
  ['style image-set', `<div style="background-image:image-set('${P}/set.png' 1x)">x</div>`],
  ['style behavior', '<div style="behavior:url(x.htc)">x</div>'],
  ['style -moz-binding', '<div style="-moz-binding:url(x.xml#xss)">x</div>'],
  ['style element import', `<style>@import '${P}/import.css';</style>`],
  ['style element url', `<style>body{background:url(${P}/body.png)}</style>`],
  ['style element expression', '<style>*{x:expression(__xss(81))}</style>'],
  [
    'style attribute breakout',
    '<div style="font-family:\'</style><script>__xss(82)</script>\'">x</div>',
  ],
  [
    'font-face',
    `<style>@font-face{font-family:x;src:url(${P}/font.woff)}</style><p style="font-family:x">x</p>`,
  ],
  ['remote img', `<img src="${P}/pixel.gif">`],
  ['srcset', `<img srcset="${P}/srcset.png 1x">`],
  ['picture source', `<picture><source srcset="${P}/picture.png"><img alt=""></picture>`],
  ['video poster', `<video poster="${P}/poster.png"></video>`],
  ['table background', `<table background="${P}/table.png"><tr><td>x</td></tr></table>`],
  ['input image', `<input type="image" src="${P}/input.png">`],
  ['global style hijack', '<style>body,.skein{display:none!important}</style>'],
  // --- markdown ---------------------------------------------------------------
  ['md javascript link', '[click](javascript:__xss(90))'],
  ['md javascript link, upper', '[click](JAVASCRIPT:__xss(91))'],
  ['md javascript link, entity colon', '[click](javascript&#58;__xss(92))'],
  ['md javascript link, encoded newline', '[click](java%0ascript:__xss(93))'],
  ['md javascript link, angle brackets', '[click](<javascript:__xss(94)>)'],
  ['md javascript link, escaped', '[click](\\javascript:__xss(95))'],
  ['md javascript link, entity parens', '[click](javascript:__xss&#40;96&#41;)'],
  [
    'md data:text/html link',
    '[click](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoOTcpPC9zY3JpcHQ+)',
  ],
  ['md vbscript link', '[click](vbscript:msgbox(98))'],
  ['md reference link', '[click][evil]\n\n[evil]: javascript:__xss(99)'],
  ['md shortcut reference', '[evil]\n\n[evil]: javascript:__xss(100)'],
  ['md collapsed reference', '[evil][]\n\n[evil]: javascript:__xss(101) "title"'],
  ['md autolink javascript', '<javascript:__xss(102)>'],
  ['md autolink data', '<data:text/html,<script>__xss(103)</script>>'],
  ['md gfm autolink literal', 'visit www.xss.invalid/literal and https://xss.invalid/auto now'],
  ['md protocol-relative', '[click](//xss.invalid/proto)'],
  ['md relative link', '[click](/__xss_probe/relative)'],
  ['md image javascript', '![img](javascript:__xss(104))'],
  ['md image remote', `![tracker](${P}/md-image.png)`],
  [
    'md image svg data',
    '![img](data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0iX194c3MoMTA1KSIvPg==)',
  ],
  ['md image attribute breakout', '![x](x" onerror="__xss(106))'],
  ['md title breakout', '[a](https://ok.example "t\\" onmouseover=\\"__xss(107)")'],
  ['md html in link text', '[<img src=x onerror=__xss(108)>](https://ok.example)'],
  ['md html in image alt', `![<img src=x onerror=__xss(109)>](${P}/alt.png)`],
  ['md inline code', '`<script>__xss(110)</script>`'],
  ['md fenced html', '```html\n<script>__xss(111)</script>\n```'],
  ['md fenced info string', '```"><img src=x onerror=__xss(112)>\ncode\n```'],
  ['md details block', '<details><summary>x</summary><img src=x onerror=__xss(113)></details>'],
  ['md footnote', 'text[^1]\n\n[^1]: <img src=x onerror=__xss(114)> [x](javascript:__xss(115))'],
  [
    'md table cell',
    '| <script>__xss(116)</script> | [x](javascript:__xss(117)) |\n|---|---|\n| a | b |',
  ],
  ['md reference image', '![x][i]\n\n[i]: javascript:__xss(118)'],
  ['md nested brackets', '[[x](javascript:__xss(119))](https://ok.example)'],
  ['md html block', '<div>\n<img src=x onerror=__xss(120)>\n</div>'],
  ['md link credentials', '[bank](https://bank.example@xss.invalid/)'],
  // --- frames and srcdoc --------------------------------------------------------
  ['nested iframe srcdoc', '<iframe srcdoc="<script>parent.__xss(130)</script>"></iframe>'],
  [
    'nested iframe srcdoc entities',
    '<iframe srcdoc="&lt;script&gt;top.__xss(131)&lt;/script&gt;"></iframe>',
  ],
  [
    'nested iframe relaxed sandbox',
    '<iframe sandbox="allow-scripts allow-same-origin" srcdoc="<script>parent.__xss(132)</script>"></iframe>',
  ],
  ['nested iframe remote', `<iframe src="${P}/frame"></iframe>`],
  ['frameset', '<frameset><frame src="javascript:parent.__xss(133)"></frameset>'],
  ['srcdoc attribute breakout', '"></iframe><script>__xss(134)</script>'],
  ['srcdoc quote breakout', "' onload='__xss(135)' x='"],
  ['srcdoc entity quote breakout', '&quot; onload=&quot;__xss(136)'],
  ['document end breakout', '</body></html><script>__xss(137)</script>'],
  ['portal', `<portal src="${P}/portal"></portal>`],
  // --- forms -----------------------------------------------------------------
  [
    'form remote action',
    `<form action="${P}/steal"><input name="p" value="secret"><button>Submit</button></form>`,
  ],
  ['form attribute', `<form id="f" action="${P}/form"></form><button form="f">go</button>`],
  ['input formaction', `<input type="submit" formaction="${P}/formaction">`],
  ['isindex', '<isindex action="javascript:__xss(140)" type="submit">'],
  // --- DOM clobbering ----------------------------------------------------------
  ['clobber getElementById', '<form name="getElementById"></form><img name="body">'],
  ['clobber __xss', '<a id="__xss" href="https://ok.example">x</a><img name="__xss">'],
  ['clobber cookie', '<img name="cookie"><form name="location"></form>'],
  // --- mutation XSS (sanitizer bypasses) ------------------------------------------
  ['mxss math style', '<math><mtext><table><mglyph><style><img src=x onerror=__xss(150)>'],
  ['mxss svg p style', '<svg></p><style><a id="</style><img src=1 onerror=__xss(151)>">'],
  ['mxss noembed', '<noembed><img title="</noembed><img src onerror=__xss(152)>"></noembed>'],
  ['mxss noframes', '<noframes><p title="</noframes><img src=x onerror=__xss(153)>"></noframes>'],
  [
    'mxss form nesting',
    '<form><math><mtext></form><form><mglyph><style></math><img src onerror=__xss(154)>',
  ],
  ['mxss textarea', '<textarea><img title="</textarea><img src=x onerror=__xss(155)>"></textarea>'],
  ['mxss math xlink', '<math><mi xlink:href="data:x,<script>__xss(156)</script>">x</mi></math>'],
  // --- terminals, diffs, keys and names ------------------------------------------
  ['ansi around html', '\u001b[31m<img src=x onerror=__xss(160)>\u001b[0m'],
  ['ansi OSC 8 hyperlink', '\u001b]8;;javascript:__xss(161)\u0007link\u001b]8;;\u0007'],
  ['ansi bogus truecolor', '\u001b[38;2;0;0;0;url(https://xss.invalid/ansi)mtext\u001b[0m'],
  [
    'diff with html',
    '--- a/<img src=x onerror=__xss(162)>\n+++ b/x\n@@ -1 +1 @@\n-<script>__xss(163)</script>\n+<svg onload=__xss(164)>',
  ],
  ['tool name with html', 'bash<img src=x onerror=__xss(165)>'],
  ['json breakout', '"}]}</script><script>__xss(166)</script>'],
  ['latex with html', '$$\\href{javascript:__xss(167)}{x}$$<img src=x onerror=__xss(168)>'],
  ['null byte', '<scr\u0000ipt>__xss(169)</scr\u0000ipt><img src=x onerror\u0000=__xss(170)>'],
  ['bidi override', '\u202e<img src=x onerror=__xss(171)>'],
  ['very long attribute', `<img src=x title="${'a'.repeat(5000)}" onerror=__xss(172)>`],
  ['deep nesting', `${'<div>'.repeat(600)}<img src=x onerror=__xss(173)>`],
];

/** The payloads, with `ORIGIN` still in them (see {@link withOrigin}). */
export const XSS_PAYLOADS: readonly XssPayload[] = Object.freeze(
  list.map(([name, payload]) => Object.freeze({ name, payload })),
);

/** Points the probe URLs at `origin`, so a request they make shows up in the page. */
export function withOrigin(payload: string, origin: string): string {
  return payload.replaceAll('ORIGIN', origin);
}
