// Where the person is, once, when they have allowed it already (Browse does not ask unprompted).
import { ensureLocationPermission, permissionState } from "../../platform/location.js";

export async function knownPosition({ ask = false } = {}) {
  const permission = ask ? await ensureLocationPermission({ force: true }) : await permissionState();
  if (permission !== "granted" || !navigator.geolocation) return null;
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
      () => resolve(null), { timeout: 8000, maximumAge: 300000 });
  });
}
