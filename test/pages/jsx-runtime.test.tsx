/**
 * The pages' own JSX runtime (src/pages/jsx.ts), against the literal HTML it must write: escaping of
 * text and attribute values, boolean and empty attributes, void elements, children that render
 * nothing, arrays, fragments, components and dangerouslySetInnerHTML. The bytes are those
 * preact-render-to-string wrote for the same pages before the runtime replaced it.
 */
import { describe, expect, it } from "vitest"
import { Fragment, escapeText, h, Markup, renderToString, type ComponentChildren } from "../../src/pages/jsx.js"

const html = (node: ComponentChildren) => renderToString(node)

describe("the pages' JSX runtime", () => {
  it("escapes text children: a script tag, quotes and ampersands stay text", () => {
    const hostile = `</p><script>alert("x")</script> & 'co' >`
    expect(html(<p>{hostile}</p>)).toBe(`<p>&lt;/p>&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; 'co' ></p>`)
    expect(html(hostile)).toBe(`&lt;/p>&lt;script>alert(&quot;x&quot;)&lt;/script> &amp; 'co' >`)
    // An entity in the text is text too: its ampersand is escaped.
    expect(html(<span>&amp; {"&amp;"}</span>)).toBe("<span>&amp; &amp;amp;</span>")
    expect(escapeText('a<b & "c"')).toBe("a&lt;b &amp; &quot;c&quot;")
  })

  it("escapes attribute values, so a value cannot close its quotes or open a tag", () => {
    expect(html(<a href={`" onmouseover="alert(1)`} title="a&b<c>d'e">x</a>)).toBe(`<a href="&quot; onmouseover=&quot;alert(1)" title="a&amp;b&lt;c>d'e">x</a>`)
    expect(html(<input type="hidden" name="csrfToken" value={`"><script>alert(1)</script>`} />)).toBe(
      `<input type="hidden" name="csrfToken" value="&quot;>&lt;script>alert(1)&lt;/script>"/>`,
    )
  })

  it("leaves out an attribute whose name could break out of the tag", () => {
    const props = { id: "a", 'x" onfocus="alert(1)': "y", "a b": "c", "c/d": "e", "e=f": "g", "g>h": "i", type: "text" }
    expect(h("input", props as never).html).toBe('<input id="a" type="text"/>')
  })

  it("refuses a tag name that is not one", () => {
    expect(() => h("p onclick=alert(1)" as never, null)).toThrow(TypeError)
    expect(() => h("p><script" as never, null)).toThrow(/is not a tag name/)
  })

  it("writes true and \"\" as the bare name, leaves out false, null and undefined, and writes numbers (0 too)", () => {
    expect(html(<input type="checkbox" required disabled={false} checked={true} placeholder={undefined} title={null as never} value="" />)).toBe('<input type="checkbox" required checked value/>')
    expect(html(<input type="text" tabindex={-1} maxlength={0} minlength={8} />)).toBe('<input type="text" tabindex="-1" maxlength="0" minlength="8"/>')
    expect(html(<img src="/logo.png" alt="" width={20} height={20} />)).toBe('<img src="/logo.png" alt width="20" height="20"/>')
  })

  it("writes the booleans of aria-*, data-* and spellcheck as the words true and false", () => {
    expect(html(<div data-webauthn-status aria-hidden={false} data-open={false} aria-busy={true} hidden />)).toBe('<div data-webauthn-status="true" aria-hidden="false" data-open="false" aria-busy="true" hidden></div>')
    expect(html(<input type="text" spellcheck={false} autofocus={false} />)).toBe('<input type="text" spellcheck="false"/>')
    expect(html(<div data-x={null} aria-label={undefined} data-y="" />)).toBe("<div data-y></div>")
  })

  it("closes empty void elements in the tag and writes an end tag for every other element", () => {
    expect(html(<head><meta charset="utf-8" /><br /><title /></head>)).toBe('<head><meta charset="utf-8"/><br/><title></title></head>')
    expect(html(<p />)).toBe("<p></p>")
    expect(html(<div class="card"></div>)).toBe('<div class="card"></div>')
  })

  it("writes class and style strings as they are (escaped), and SVG attribute names as written", () => {
    expect(html(<button class="button branded" style="--provider-bg:#24292f;--provider-text:#fff" type="submit">Go</button>)).toBe(
      '<button class="button branded" style="--provider-bg:#24292f;--provider-text:#fff" type="submit">Go</button>',
    )
    expect(html(<svg viewBox="0 0 24 24" stroke-width="1.8" stroke-linecap="round" focusable="false"><path d="M4 6.5h16" /></svg>)).toBe(
      '<svg viewBox="0 0 24 24" stroke-width="1.8" stroke-linecap="round" focusable="false"><path d="M4 6.5h16"></path></svg>',
    )
  })

  it("writes nothing for null, undefined, true and false children, and numbers as digits", () => {
    expect(html(<p>{null}{undefined}{false}{true}{0}{""}{1.5}{-2}</p>)).toBe("<p>01.5-2</p>")
    expect(html(<ul>{[null, <li>a</li>, false, "b&", [<li>c</li>, [undefined, 3n]]]}</ul>)).toBe("<ul><li>a</li>b&amp;<li>c</li>3</ul>")
    expect(html([[[]], null])).toBe("")
  })

  it("writes a fragment's children with no element around them, nested or empty", () => {
    expect(html(<><h1>Title</h1><>{"a<"}<>{null}</></><p>b</p></>)).toBe("<h1>Title</h1>a&lt;<p>b</p>")
    expect(html(<></>)).toBe("")
    expect(html(<div>{[<>x</>, <>y</>]}</div>)).toBe("<div>xy</div>")
  })

  it("calls components with their props and children, and writes what they give back", () => {
    const Field = ({ id, label, children }: { id: string; label: string; children?: ComponentChildren }) => (
      <div class="field">
        <label for={id}>{label}</label>
        {children}
      </div>
    )
    expect(html(<Field id="e" label="E<mail">{<input id="e" type="email" />}{"hint&"}</Field>)).toBe(
      '<div class="field"><label for="e">E&lt;mail</label><input id="e" type="email"/>hint&amp;</div>',
    )
    expect(html(<Field id="x" label="Only" />)).toBe('<div class="field"><label for="x">Only</label></div>')
  })

  it("writes dangerouslySetInnerHTML unescaped in place of the children, and the children when it is empty", () => {
    expect(html(<style dangerouslySetInnerHTML={{ __html: "a>b{color:red}&" }} />)).toBe("<style>a>b{color:red}&</style>")
    expect(html(<script dangerouslySetInnerHTML={{ __html: 'if (a < b && c) alert("x")' }} />)).toBe('<script>if (a < b && c) alert("x")</script>')
    expect(html(<div class="qr" dangerouslySetInnerHTML={{ __html: '<svg viewBox="0 0 1 1"><path d="M0 0h1"/></svg>' }} />)).toBe(
      '<div class="qr"><svg viewBox="0 0 1 1"><path d="M0 0h1"/></svg></div>',
    )
    expect(h("div", { dangerouslySetInnerHTML: { __html: "<b>raw</b>" } }, "ignored").html).toBe("<div><b>raw</b></div>")
    expect(html(<p dangerouslySetInnerHTML={{ __html: "" }}>{"<kept>"}</p>)).toBe("<p>&lt;kept></p>")
  })

  it("keeps text that merely looks like markup escaped: only the runtime makes Markup", () => {
    expect(html(<p>{"<b>bold</b>"}</p>)).toBe("<p>&lt;b>bold&lt;/b></p>")
    expect(html(<p>{new Markup("<b>bold</b>")}</p>)).toBe("<p><b>bold</b></p>")
    expect(html(<html lang="en" dir={undefined}><body>{[<main>m</main>]}</body></html>)).toBe('<html lang="en"><body><main>m</main></body></html>')
  })

  it("writes attributes in the order given", () => {
    expect(Fragment({ children: <form action="/a" method="post" class="stack" data-credentials-form="c" /> }).html).toBe('<form action="/a" method="post" class="stack" data-credentials-form="c"></form>')
  })
})

// Mistakes the attribute types refuse: `npm run typecheck` fails when one of them compiles.
export function refusedByTheTypes(): ComponentChildren[] {
  return [
    // @ts-expect-error React's name: the pages write HTML's `class`.
    <div className="card" />,
    // @ts-expect-error a camel-case name is not written lower-case: `maxlength`.
    <input maxLength={6} />,
    // @ts-expect-error an event handler has no place in server-rendered HTML.
    <button onClick={() => {}} />,
    // @ts-expect-error a style is a string, not an object.
    <p style={{ color: "red" }} />,
    // @ts-expect-error an attribute value is never an object.
    <a href={new URL("https://app.example")} />,
    // @ts-expect-error a tag the pages do not use (a typo here).
    <dvi />,
  ]
}
