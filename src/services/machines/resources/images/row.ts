export interface UserImageRow {
  id: number;
  name: string;
  type: 'snapshot' | 'backup';
  machine_id: number | null;
  base_image_id: number;
  region: string;
  min_disk_size: number;
  size_gigabytes: number;
  tags: string[];
  created_at: Date | string;
}
