// The apps of this installation. The router concatenates their route tables, in this order; an app adds
// its screens by exporting `routes` from its own routes.js and being listed here.
import { routes as accounts } from "./accounts/routes.js";
import { routes as activities } from "./activities/routes.js";
import { routes as community } from "./community/routes.js";
import { routes as flora } from "./flora/routes.js";
import { routes as home } from "./home/routes.js";
import { routes as parking } from "./parking/routes.js";
import { routes as runs } from "./runs/routes.js";
import { routes as ski } from "./ski/routes.js";
import { routes as trails } from "./trails/routes.js";

export const appRoutes = [home, runs, activities, flora, parking, trails, ski, community, accounts];

/** The screen a hash that matches nothing goes to. */
export const fallbackPath = "home";
