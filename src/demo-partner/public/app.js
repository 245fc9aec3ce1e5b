// The demo partner's page script: everything a partner writes to show the Hearth household chart.
// The SDK and the example household come from the embed origin, pinned to one chart release; the
// token comes from this site's own server (POST /chart-token), which holds the API key.
import { mountHouseholdChart } from '%EMBED_ORIGIN%/chart/v%CHART_VERSION%/sdk.js'

const embedOrigin = '%EMBED_ORIGIN%'
const version = '%CHART_VERSION%'

const status = document.getElementById('chart-status')
const container = document.getElementById('household-chart')
const eventsList = document.getElementById('events')
const selection = document.getElementById('selection')
const themeToggle = document.getElementById('theme-toggle')

/** Asks our server for a chart token; the server mints it with the API key, which stays there. */
async function fetchToken() {
  const response = await fetch('/chart-token', { method: 'POST' })
  if (!response.ok) throw new Error(`POST /chart-token answered ${response.status}`)
  return response.json()
}

// A real CRM would build the payload from its own records; the demo shows the published example.
const exampleResponse = await fetch(`${embedOrigin}/chart/v${version}/example.json`)
const payload = await exampleResponse.json()
const names = new Map([...payload.people, ...(payload.entities ?? [])].map((item) => [item.id, item.name]))

let theme = 'light'

const chart = mountHouseholdChart({
  container,
  embedOrigin,
  version,
  title: `Household chart of the ${payload.household.name}`,
  fetchToken,
  payload,
  theme,
  onEvent: (event) => {
    logEvent(event)
    if (event.type === 'select') selection.textContent = `Selected: ${names.get(event.id) ?? event.id} (${event.kind})`
  },
})

chart.ready.then(
  () => status.remove(),
  (error) => {
    status.textContent = `The chart could not be shown: ${error.message}`
    status.classList.add('error')
  },
)

themeToggle.addEventListener('click', () => {
  theme = theme === 'light' ? 'dark' : 'light'
  document.documentElement.dataset.theme = theme
  themeToggle.setAttribute('aria-pressed', String(theme === 'dark'))
  themeToggle.textContent = theme === 'dark' ? 'Light mode' : 'Dark mode'
  chart.setTheme(theme)
})

document.getElementById('events-clear').addEventListener('click', () => eventsList.replaceChildren())

/** Adds a line to the events panel, newest first. */
function logEvent(event) {
  const item = document.createElement('li')
  item.className = `event event-${event.type}`
  const time = document.createElement('time')
  time.textContent = new Date().toLocaleTimeString()
  const what = document.createElement('span')
  what.textContent = describe(event)
  item.append(time, what)
  eventsList.prepend(item)
  while (eventsList.children.length > 50) eventsList.lastElementChild.remove()
}

function describe(event) {
  switch (event.type) {
    case 'select':
      return `select ${event.kind} ${names.get(event.id) ?? event.id} (${event.id})`
    case 'rendered':
    case 'resize':
      return `${event.type} height ${Math.round(event.height)}px`
    case 'error':
      return `error ${event.code}: ${event.message}`
    default:
      return event.type
  }
}
