// The five apps of the platform, as the Home screen shows them.

export const apps = [
  {
    id: "trails", name: "Trails", href: "#/trails", available: true,
    text: "Find trails near you, read reviews, save favourites and record your hikes.",
    icon: "M3 20 9 8l4 7 3-4 5 9z M14 5a2 2 0 1 0 0.01 0",
  },
  {
    id: "runs", name: "Run planner", href: "#/runs", available: true,
    text: "Three loop routes of the distance you want, sheltered when rain is coming.",
    icon: "M13 4a2 2 0 1 0 0.01 0 M7 21l3-6 3 2v4 M10 15l1-5 4 3 3-1 M11 10 8 11l-2 3",
  },
  {
    id: "parking", name: "Parking", href: "#/parking", available: true,
    text: "See free spots on campus, live from the sensors, and hold one on your way.",
    icon: "M5 3h14v18H5z M9 17V7h4a3 3 0 0 1 0 6H9",
  },
  {
    id: "flora", name: "Field guide", href: "#/flora", available: true,
    text: "Identify alpine plants, filter by what you see, record observations offline.",
    icon: "M12 21v-8 M12 13c-4 0-6-3-6-7 4 0 6 3 6 7z M12 13c4 0 6-3 6-7-4 0-6 3-6 7z M12 9a2 2 0 1 0 0.01 0",
  },
  {
    id: "community", name: "Community", href: "#/community", available: true,
    text: "Friends, messages and reviews, shared by every app of this server.",
    icon: "M8 11a3 3 0 1 0 0.01 0 M16 11a3 3 0 1 0 0.01 0 M3 20c0-3 2-5 5-5s5 2 5 5 M11 20c0-3 2-5 5-5s5 2 5 5",
  },
  {
    id: "ski", name: "Ski", href: "#/ski", available: true,
    text: "Mountains nearby with ticket prices, weather, pistes and lifts; favourites and Best Moments.",
    icon: "M2 20 10 6l4 6 2-3 6 11z M4 22 20 17",
  },
];
