// Where the skier is, asking for permission when `ask` (Nearby asks: it needs the position).
import { ensureLocationPermission, permissionState } from "../../platform/location.js";

export async function currentPosition({ ask = false } = {}) {
  const permission = ask ? await ensureLocationPermission({ force: true }) : await permissionState();
  if (permission !== "granted" || !navigator.geolocation) return null;
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
      () => resolve(null), { timeout: 10000, maximumAge: 300000 });
  });
}
