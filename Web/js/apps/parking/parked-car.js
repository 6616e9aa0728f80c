// The parked car (seed 4, 8.1.2): kept only in this browser's storage, never sent to the server.
const key = "cairn.parking.car";

export function parkedCar() {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? "null");
    return value && typeof value.lat === "number" && typeof value.lon === "number" ? value : null;
  } catch {
    return null;
  }
}

export function saveParkedCar(lat, lon) {
  const car = { lat, lon, saved_at: Date.now() };
  localStorage.setItem(key, JSON.stringify(car));
  return car;
}

export function forgetParkedCar() {
  localStorage.removeItem(key);
}

/** This device's id for holds (guests hold one spot per device); made once, kept here. */
export function deviceId() {
  let id = localStorage.getItem("cairn.parking.device");
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem("cairn.parking.device", id);
  }
  return id;
}

/** A guest's permits, kept on the device (a signed-in driver's are on the server). */
export function devicePermits() {
  try {
    return JSON.parse(localStorage.getItem("cairn.parking.permits") ?? "[]");
  } catch {
    return [];
  }
}
