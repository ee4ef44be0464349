// The three ways a file reaches the playground: the picker, a drop on the zone, a paste anywhere.

export function watchFileInput({
  picker,
  dropZone,
  onFile,
}: {
  picker: HTMLInputElement;
  dropZone: HTMLElement;
  onFile: (file: File) => void;
}): void {
  picker.addEventListener('change', () => {
    const file = picker.files?.[0];
    if (file) onFile(file);
  });
  dropZone.addEventListener('dragover', (event) => {
    event.preventDefault();
    dropZone.classList.add('dragging');
  });
  dropZone.addEventListener('dragleave', () => dropZone.classList.remove('dragging'));
  dropZone.addEventListener('drop', (event) => {
    event.preventDefault();
    dropZone.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (file) onFile(file);
  });
  document.addEventListener('paste', (event) => {
    const file = event.clipboardData?.files[0];
    if (file) onFile(file);
  });
}
