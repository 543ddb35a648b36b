/** The `hello` client name a pod uses towards the pods it manages (`pod/<name>`). */
export function podClientName(podName: string): string {
  return `pod/${podName}`;
}
