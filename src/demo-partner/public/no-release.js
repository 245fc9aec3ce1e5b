// Served as /app.js when the server has no chart release to pin: say how to make one.
const status = document.getElementById('chart-status')
status.textContent = 'No chart release is served: run `npm run chart:release`, then restart `npm start`.'
status.classList.add('error')
