// Review settings: until the learner has chosen a time zone, select the browser's own zone
// (under its listed name, or an old name an option lists in data-aliases) and say so.
// Without JavaScript the stored zone stays selected.
document.addEventListener("DOMContentLoaded", () => {
  const select = document.querySelector("select[data-browser-zone='offer']");
  if (!select) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  const option = Array.from(select.options).find(
    (o) => o.value === zone || (o.dataset.aliases || "").split(" ").includes(zone)
  );
  if (!option) return;
  select.value = option.value;
  const note = document.getElementById("browser-zone");
  if (note) note.hidden = false;
});
