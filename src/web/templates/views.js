// Progressive enhancement of the calendar views (served by this server; the pages work without it):
// picking a date in the search bar submits it at once.
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  const form = document.querySelector('form.bar');
  const date = form && form.querySelector('input[type="date"]');
  if (!form || !date) return;
  date.addEventListener('change', () => {
    if (date.value) form.requestSubmit();
  });
});
