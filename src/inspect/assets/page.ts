import { escapeXml } from "../svg.js"

const statuses = ["running", "waiting", "succeeded", "ended", "error", "stopped"]

/**
 * The inspector page's HTML shell: landmarks, headings, the flow list's controls and the empty
 * main region. The script fills them; everything it needs comes from the same handler.
 */
export function pageHtml(base: string, machines: readonly string[], title: string): string {
  const b = escapeXml(base)
  const options = machines.map((id) => `<option value="${escapeXml(id)}">${escapeXml(id)}</option>`).join("")
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeXml(title)}</title>
<link rel="stylesheet" href="${b}/assets/inspector.css">
<script src="${b}/assets/inspector.js" defer></script>
</head>
<body data-base="${b}">
<a class="skip" href="#main">Skip to the flow details</a>
<header class="top">
  <h1><span class="logo" aria-hidden="true">af</span>${escapeXml(title)}</h1>
  <nav class="views" aria-label="Views"><a href="#/flows" aria-current="page">Flows</a><a href="#/machines">Machines</a></nav>
  <p id="live" class="live" role="status" data-state="connecting">Connecting…</p>
</header>
<div class="layout">
  <nav class="sidebar" aria-labelledby="flows-heading">
    <div class="sidebar-head">
      <h2 id="flows-heading">Recent flows <span id="flow-count" class="count"></span></h2>
      <div class="filters">
        <label>Machine<select id="machine-filter"><option value="">All machines</option>${options}</select></label>
        <label>Status<select id="status-filter"><option value="">Any status</option>${statuses.map((s) => `<option value="${s}">${s}</option>`).join("")}</select></label>
      </div>
      <p class="hint" id="list-hint">Arrow keys move through the list, Page Up and Page Down turn pages.</p>
    </div>
    <button type="button" id="new-flows" class="new-flows" hidden></button>
    <ol id="flow-list" class="flow-list" aria-describedby="list-hint"></ol>
    <div class="pager"><button type="button" id="newer">Newer</button><span id="page-info"></span><button type="button" id="older">Older</button></div>
  </nav>
  <main id="main" tabindex="-1">
    <div id="view"><h2>Flows</h2><noscript><p class="empty">The inspector needs JavaScript to show flows.</p></noscript></div>
  </main>
</div>
</body>
</html>
`
}
