// Tutorials' pure logic (GoSki story 3): level names, where a video plays embedded — privacy-enhanced
// (YouTube's youtube-nocookie.com, Vimeo with dnt=1), only once the person presses play — and how a provider
// is named. The server reads the address into `provider` and `video_id`.

export const levelNames = { beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced" };

export const levelTexts = {
  beginner: "First days: gliding, stopping and your first turns.",
  intermediate: "Linking parallel turns on blue and red runs.",
  advanced: "Carving, moguls, steeps and powder.",
};

export const providerNames = { youtube: "YouTube", vimeo: "Vimeo", other: "Web page" };

/** The embedded player's address for `tutorial`, or null when it opens outside Cairn. */
export function embedAddress(tutorial) {
  const id = tutorial.video_id;
  if (!id) return null;
  if (tutorial.provider === "youtube" && /^[A-Za-z0-9_-]{11}$/.test(id)) {
    return `https://www.youtube-nocookie.com/embed/${id}?autoplay=1`;
  }
  if (tutorial.provider === "vimeo" && /^\d{1,12}$/.test(id)) {
    return `https://player.vimeo.com/video/${id}?dnt=1&autoplay=1`;
  }
  return null;
}

/** The host of an outside link, for the "opens outside" mark ("en.wikipedia.org"). */
export function linkHost(address) {
  try {
    return new URL(address).host.replace(/^www\./, "");
  } catch {
    return address;
  }
}
