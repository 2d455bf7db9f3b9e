import { BaseModel } from './base.js';

/** A label a user puts on their own projects. */
export class Category extends BaseModel {
  static override tableName = 'categories';
  id!: number;
  id_owner!: number;
  name!: string;
  created_at!: Date;
  updated_at!: Date;

  override $beforeUpdate() {
    this.updated_at = new Date();
  }
}

export class ProjectCategory extends BaseModel {
  static override tableName = 'project_categories';
  static override idColumn = ['id_project', 'id_category'];
  id_project!: number;
  id_category!: number;
}
