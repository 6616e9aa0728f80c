// The device's IndexedDB database "cairn", promised: object stores "records" (data apps keep for offline
// use, by key) and "outbox" (writes waiting to be sent, by id). Only the offline store and the outbox use it.

const databaseName = "cairn";
const version = 1;
let opening = null;

function database() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(databaseName, version);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains("records")) db.createObjectStore("records");
      if (!db.objectStoreNames.contains("outbox")) db.createObjectStore("outbox", { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error);
    };
  });
  return opening;
}

async function run(storeName, mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(storeName, mode);
    const request = work(transaction.objectStore(storeName));
    transaction.oncomplete = () => resolve(request?.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** One object store: { get(key), put(value, key?), delete(key), all(), keys(), clear() }, all async. */
export function idbStore(storeName) {
  return {
    get: (key) => run(storeName, "readonly", (store) => store.get(key)),
    put: (value, key) => run(storeName, "readwrite", (store) => (key === undefined ? store.put(value) : store.put(value, key))),
    delete: (key) => run(storeName, "readwrite", (store) => store.delete(key)),
    all: () => run(storeName, "readonly", (store) => store.getAll()),
    keys: () => run(storeName, "readonly", (store) => store.getAllKeys()),
    clear: () => run(storeName, "readwrite", (store) => store.clear()),
  };
}
