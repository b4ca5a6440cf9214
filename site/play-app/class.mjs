// What the Play pages and the class board share for class rounds: words in the page's language,
// QR codes drawn from the worker's SVG, copying, and reading QR codes from the camera.

export const say = (lang, de, en) => (lang === "de" ? de : en);

// Put a QR code (segno's SVG, made in the worker from our own text) into ``el``, named for screen readers.
export function showQr(el, svg, label) {
  el.innerHTML = svg;
  const pic = el.querySelector("svg");
  pic.setAttribute("role", "img");
  pic.setAttribute("aria-label", label);
  pic.setAttribute("shape-rendering", "crispEdges");
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    return false; // no clipboard (an insecure origin, a refusal): the code is on the screen to type
  }
}

function loadJsQr() {
  if (self.jsQR) return Promise.resolve(self.jsQR);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("jsQR.js", import.meta.url).href;
    script.onload = () => resolve(self.jsQR);
    script.onerror = () => reject(new Error("jsQR.js did not load"));
    document.head.append(script);
  });
}

// Read QR codes from the device camera into ``onText(text)`` until the returned stop() is called:
// the browser's BarcodeDetector where it has one, else jsQR (shipped with the site) over the video
// frames. Throws where there is no camera (or it is refused): then typing the code still works.
export async function startCamera(video, onText) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new Error("no camera");
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  await video.play();
  let detector = null;
  if ("BarcodeDetector" in self) {
    try {
      const formats = await self.BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) detector = new self.BarcodeDetector({ formats: ["qr_code"] });
    } catch (err) {
      detector = null;
    }
  }
  const jsQR = detector ? null : await loadJsQr();
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  let running = true;
  let last = "";
  async function look() {
    if (!running) return;
    try {
      let text = null;
      if (detector) {
        const found = await detector.detect(video);
        text = found.length ? found[0].rawValue : null;
      } else if (video.videoWidth) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        ctx.drawImage(video, 0, 0);
        const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
        const found = jsQR(img.data, img.width, img.height, { inversionAttempts: "dontInvert" });
        text = found ? found.data : null;
      }
      if (text && text !== last) {
        last = text;
        onText(text);
      }
    } catch (err) {
      console.warn("camera frame not read:", err);
    }
    if (running) setTimeout(look, 250);
  }
  look();
  return () => {
    running = false;
    stream.getTracks().forEach((track) => track.stop());
    video.srcObject = null;
  };
}
