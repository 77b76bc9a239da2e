// Progressive enhancement of the calendar views (served by this server; the pages work without it):
// picking a date in the search bar submits it at once; on a phone's month grid, the day whose events
// show below the grid (the link's #cal-day-… target, or the default day) is marked in the grid.
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  const form = document.querySelector('form.bar');
  const date = form && form.querySelector('input[type="date"]');
  if (form && date) {
    date.addEventListener('change', () => {
      if (date.value) form.requestSubmit();
    });
  }
  const days = document.querySelector('.month-days');
  if (!days) return;
  const mark = () => {
    const target = location.hash.startsWith('#cal-day-') && document.getElementById(location.hash.slice(1));
    const shown = target || days.querySelector('.month-day.default');
    for (const link of document.querySelectorAll('table.month a.day-pick')) {
      const selected = shown !== null && link.getAttribute('href') === `#${shown.id}`;
      link.closest('td').classList.toggle('selected', selected);
      if (selected) link.setAttribute('aria-current', 'true');
      else link.removeAttribute('aria-current');
    }
  };
  window.addEventListener('hashchange', mark);
  mark();
});
