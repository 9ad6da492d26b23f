export interface UserImageRow {
  id: number;
  name: string;
  type: 'snapshot' | 'backup' | 'custom';
  machine_id: number | null;
  /** The catalog image a snapshot or backup was taken of; null for a custom image. */
  base_image_id: number | null;
  region: string;
  min_disk_size: number;
  size_gigabytes: number;
  tags: string[];
  created_at: Date | string;
  /** Custom images: where they were imported from, and what the account said they are. */
  url?: string | null;
  distribution?: string | null;
  description?: string | null;
  /** Regions the image was transferred to, besides its first. */
  transferred?: string[];
}
